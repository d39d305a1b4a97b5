import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryLogger } from '@maou/bench-app/testing';
import { JsonCalibrationStoreAdapter } from './json-calibration-store.adapter';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'maou-calib-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('JsonCalibrationStoreAdapter', () => {
  it('given saved results, when read back by a new instance, then each key returns its value and no temp file is left', async () => {
    const path = join(dir, 'nested', 'calibration.json');
    const a = new JsonCalibrationStoreAdapter(path, new MemoryLogger());
    await a.save('k1', { workers: 1 });
    await a.save('k2', { workers: 2 });
    const b = new JsonCalibrationStoreAdapter(path, new MemoryLogger());
    expect(await b.load('k1')).toEqual({ workers: 1 });
    expect(await b.load('k2')).toEqual({ workers: 2 });
    expect(await b.load('k3')).toBeNull();
    expect(await readdir(join(dir, 'nested'))).toEqual(['calibration.json']);
    expect(JSON.parse(await readFile(path, 'utf8')).formatVersion).toBe(1);
  });

  it('given a corrupt or foreign file, when loaded, then it is ignored with a warning and the next save replaces it', async () => {
    const path = join(dir, 'calibration.json');
    const logger = new MemoryLogger();
    const store = new JsonCalibrationStoreAdapter(path, logger);
    await writeFile(path, '{"formatVersion": 1, "entries": {"k": ');
    expect(await store.load('k')).toBeNull();
    await writeFile(path, '[1, 2]');
    expect(await store.load('k')).toBeNull();
    expect(logger.lines.filter((l) => l.level === 'warn').map((l) => l.msg)).toEqual([
      `calibration_cache_ignored path=${path} reason="corrupt JSON"`,
      `calibration_cache_ignored path=${path} reason="unknown format"`,
    ]);
    await store.save('k', 7);
    expect(await store.load('k')).toBe(7);
  });
});
