import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { MemoryLogger } from '@maou/bench-use-cases/testing';
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

  it('given a cut-short calibration file, when loaded, then it is ignored with a warning and the next save replaces it', async () => {
    const path = join(dir, 'calibration.json');
    const logger = new MemoryLogger();
    const store = new JsonCalibrationStoreAdapter(path, logger);
    await writeFile(path, '{\n  "formatVersion": 1,\n  "entries": {\n    "k": ');
    expect(await store.load('k')).toBeNull();
    expect(logger.lines.filter((l) => l.level === 'warn').map((l) => l.msg)).toEqual([
      `calibration_cache_ignored path=${path} reason="corrupt JSON"`,
    ]);
    await store.save('k', 7);
    expect(await store.load('k')).toBe(7);
  });

  it('given a file that is not a calibration file, when saved, then it is refused by name and kept', async () => {
    const path = join(dir, 'report.json');
    const logger = new MemoryLogger();
    const store = new JsonCalibrationStoreAdapter(path, logger);
    await writeFile(path, '[1, 2]');
    expect(await store.load('k')).toBeNull();
    expect(logger.lines.map((l) => l.msg)).toEqual([`calibration_cache_ignored path=${path} reason="unknown format"`]);
    await expect(store.save('k', 7)).rejects.toThrow(
      `${path} exists and is not a calibration file written by maou-bench`,
    );
    expect(await readFile(path, 'utf8')).toBe('[1, 2]');
  });

  it('given a calibration file of a newer format version, then load and save refuse it by name and keep it', async () => {
    const path = join(dir, 'calibration.json');
    const newer = '{\n  "formatVersion": 2,\n  "entries": {"k": {"v2": true}}\n}\n';
    await writeFile(path, newer);
    const store = new JsonCalibrationStoreAdapter(path, new MemoryLogger());
    const refusal = `calibration file ${path} has formatVersion 2, newer than this maou-bench reads (1)`;
    await expect(store.load('k')).rejects.toThrow(refusal);
    await expect(store.save('k', 7)).rejects.toThrow(refusal);
    expect(await readFile(path, 'utf8')).toBe(newer);
  });
});

// Each child is a separate process with the compiled adapter (`pnpm build` first), as two maou runs would be: it says
// `ready`, waits for the `go` file so that all of them save at once, then saves its own keys one after another (or,
// with MODE=count, adds one to the shared key 'count' as many times, as runs extending one machine record do).
const COMPILED = resolve(__dirname, '..', '..', 'dist', 'calibration', 'json-calibration-store.adapter.js');
const CHILD = `
const { existsSync } = require('node:fs');
const { JsonCalibrationStoreAdapter } = require(process.env.STORE_MODULE);
const quiet = { debug() {}, info() {}, warn() {}, error() {} };
const store = new JsonCalibrationStoreAdapter(process.env.STORE_PATH, quiet);
process.stdout.write('ready\\n');
const wait = () => (existsSync(process.env.GO_FILE) ? run() : setTimeout(wait, 2));
const run = async () => {
  for (let i = 0; i < Number(process.env.SAVES); i++)
    if (process.env.MODE === 'count') await store.update('count', (n) => (n ?? 0) + 1);
    else await store.save(process.env.CHILD_ID + '-' + i, { i });
};
wait();
`;

const saveFromChildren = async (path: string, children: number, saves: number, mode = 'keys'): Promise<number[]> => {
  const go = join(dir, 'go');
  const procs = Array.from({ length: children }, (_, c) =>
    spawn(process.execPath, ['-e', CHILD], {
      env: {
        ...process.env,
        STORE_MODULE: COMPILED,
        STORE_PATH: path,
        GO_FILE: go,
        CHILD_ID: `c${c}`,
        SAVES: `${saves}`,
        MODE: mode,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    }),
  );
  await Promise.all(procs.map((p) => new Promise<void>((ready) => p.stdout.once('data', () => ready()))));
  await writeFile(go, '');
  return Promise.all(procs.map((p) => new Promise<number>((done) => p.once('exit', (code) => done(code ?? -1)))));
};

describe('JsonCalibrationStoreAdapter across processes', () => {
  it('given several processes saving different keys at once, then every entry survives and no lock or temp file is left', async () => {
    const path = join(dir, 'calibration.json');
    const codes = await saveFromChildren(path, 5, 20);
    expect(codes).toEqual([0, 0, 0, 0, 0]);
    const keys = Object.keys(JSON.parse(await readFile(path, 'utf8')).entries as object);
    const expected = Array.from({ length: 5 }, (_, c) => Array.from({ length: 20 }, (_, i) => `c${c}-${i}`)).flat();
    expect(keys.sort()).toEqual(expected.sort());
    expect((await readdir(dir)).sort()).toEqual(['calibration.json', 'go']);
  });

  it('given several processes updating one key at once, then every change counts', async () => {
    const path = join(dir, 'calibration.json');
    expect(await saveFromChildren(path, 4, 15, 'count')).toEqual([0, 0, 0, 0]);
    expect(JSON.parse(await readFile(path, 'utf8')).entries).toEqual({ count: 60 });
  });

  it('given an update that returns undefined, then nothing is written', async () => {
    const path = join(dir, 'calibration.json');
    const store = new JsonCalibrationStoreAdapter(path, new MemoryLogger());
    await store.update('k', () => undefined);
    expect(await readdir(dir)).toEqual([]);
    await store.save('k', 1);
    await store.update('k', (v) => (v === 1 ? undefined : 2));
    expect(await store.load('k')).toBe(1);
  });

  it('given a lock left by a process that has ended, then a save removes it and goes on', async () => {
    const path = join(dir, 'calibration.json');
    const ended = spawnSync(process.execPath, ['-e', '0']).pid;
    await writeFile(`${path}.lock`, JSON.stringify({ pid: ended, host: hostname(), token: 'gone' }));
    await new JsonCalibrationStoreAdapter(path, new MemoryLogger()).save('k', 1);
    expect(await readdir(dir)).toEqual(['calibration.json']);
  });

  it('given a lock from another machine older than staleMs, then a save removes it and goes on', async () => {
    const path = join(dir, 'calibration.json');
    await writeFile(`${path}.lock`, JSON.stringify({ pid: process.pid, host: `not-${hostname()}`, token: 'old' }));
    const minuteAgo = new Date(Date.now() - 60_000);
    await utimes(`${path}.lock`, minuteAgo, minuteAgo);
    await new JsonCalibrationStoreAdapter(path, new MemoryLogger(), { staleMs: 30_000, timeoutMs: 5_000 }).save('k', 1);
    expect(await readdir(dir)).toEqual(['calibration.json']);
  });

  it('given a lock a live process holds, then a save waits and fails naming the lock file, leaving the file as it was', async () => {
    const path = join(dir, 'calibration.json');
    const store = new JsonCalibrationStoreAdapter(path, new MemoryLogger(), { timeoutMs: 200 });
    await store.save('kept', 1);
    await writeFile(`${path}.lock`, JSON.stringify({ pid: process.pid, host: hostname(), token: 'live' }));
    await expect(store.save('k', 2)).rejects.toThrow(
      `${path}: another process kept the lock ${path}.lock for over 0.2 s (held by process ${process.pid} on ${hostname()}); if no maou run is using ${path}, delete ${path}.lock`,
    );
    expect(JSON.parse(await readFile(path, 'utf8')).entries).toEqual({ kept: 1 });
    expect((await readdir(dir)).sort()).toEqual(['calibration.json', 'calibration.json.lock']);
  });
});
