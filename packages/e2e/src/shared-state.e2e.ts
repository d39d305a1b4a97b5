import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runMaouAsync } from './run-maou';

// Two real runs at once on one fresh sample-data cache and one calibration file (#19): both must finish, read whole
// files, and leave the shared files whole with no temporaries. The network is not what is shared: lite on one thread
// (no replica workers) keeps the runs short (the default resnet made this suite one of CI's slowest).
const dir = mkdtempSync(join(tmpdir(), 'maou-shared-'));
const env = { MAOU_BENCH_CACHE: join(dir, 'cache') };
const calibration = join(dir, 'calibration.json');
const run = (batchSize: number) =>
  runMaouAsync(
    [
      'utility',
      'benchmark-training',
      '--sample-positions',
      '640',
      '--model-architecture',
      'lite',
      '--threads',
      '1',
      '--batch-size',
      String(batchSize),
      '--max-batches',
      '4',
      '--warmup-batches',
      '1',
      '--calibrate',
      '--calibration-budget',
      '3',
      '--calibration-file',
      calibration,
      '--log-level',
      'warn',
      '--json',
    ],
    env,
  );
const temporaries = (): string[] =>
  readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => /\.tmp|\.part$/.test(f));

describe('two runs sharing the sample cache and the calibration file', () => {
  it('given two runs started together on a fresh cache, then both succeed and the shared files stay whole', async () => {
    const [a, b] = await Promise.all([run(16), run(32)]);
    expect([a.code, b.code, a.stderr + b.stderr]).toEqual([0, 0, expect.any(String)]);
    expect(JSON.parse(a.stdout).training_metrics.total_batches).toBe(4);
    expect(JSON.parse(b.stdout).training_metrics.total_batches).toBe(4);
    expect(JSON.parse(readFileSync(calibration, 'utf8'))).toMatchObject({
      formatVersion: 1,
      entries: expect.any(Object),
    });
    expect(temporaries()).toEqual([]);
  }, 240_000);

  it('given a corrupt calibration file, then the run warns, measures again and rewrites the file', async () => {
    writeFileSync(calibration, '{"formatVersion": 1, "entries": {"trunc');
    const r = await run(16);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/calibration_cache_ignored .*corrupt JSON/);
    expect(JSON.parse(r.stdout).data_load_method.calibration.origin).toBe('measured');
    expect(Object.keys(JSON.parse(readFileSync(calibration, 'utf8')).entries)).toHaveLength(1);
    expect(temporaries()).toEqual([]);
  }, 240_000);
});
