import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { MAOU_BIN, oneLoaderPoint, runMaou } from './run-maou';

const dir = mkdtempSync(join(tmpdir(), 'maou-e2e-dl-'));
const env = { MAOU_BENCH_CACHE: join(dir, 'cache') };
// the embedded sample data, made once in this run's cache
const ON_SAMPLE_DATA = ['utility', 'benchmark-dataloader', '--sample-positions', '512'];

describe('maou utility benchmark-dataloader (built binary)', () => {
  it('given bad grid or measurement flags, then exit 2 naming each flag before any data is touched', () => {
    const r = runMaou(
      ['utility', 'benchmark-dataloader', '--num-batches', '0', '--workers', '-1', '--noise-margin', '2'],
      env,
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--num-batches: must be an integer from 1 to 1,000,000, got 0/);
    expect(r.stderr).toMatch(/--workers: must be an integer from 0 to 256, got -1/);
    expect(r.stderr).toMatch(/--noise-margin:/);
    expect(existsSync(join(dir, 'cache'))).toBe(false);
  });

  it('given the sample data, when a small grid is measured with the model, then it prints the table and writes the JSON', () => {
    const out = join(dir, 'dl.json');
    const r = runMaou(
      [
        ...ON_SAMPLE_DATA,
        '--batch-size',
        '16',
        '--num-batches',
        '4',
        '--repeats',
        '2',
        '--workers',
        '0',
        '1',
        '--prefetch-factors',
        '2',
        '--consumption-steps',
        '1',
        '--gpu',
        'wasm',
        // the model's own rate on one thread: the loader grid is under test, not data-parallel replicas
        '--threads',
        '1',
        '--model-architecture',
        'lite',
        '--output-json',
        out,
        '--log-level',
        'silent',
      ],
      env,
    );
    expect(r.stderr).not.toMatch(/Error/);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Recommended flags:\n--batch-size 16 --dataloader-workers [01]/);
    // no source flag: the report says at the top that the embedded sample data was used
    expect(r.stdout).toMatch(
      /^NOTE: no data was given \(no --stage3-data-path, no cloud source\): this run used the embedded sample data, /,
    );
    const json = JSON.parse(readFileSync(out, 'utf8'));
    expect(json.all_results).toHaveLength(2);
    expect(json.all_results[1]).toMatchObject({ num_workers: 1, prefetch_factor: 2, batch_size: 16 });
    expect(json.all_results[0].samples_per_second.runs).toHaveLength(2);
    // maou's keys: each setting's time_taken over its batches_processed (2 repeats of 4), the chosen one's total_time,
    // and maou's device on a CPU backend
    for (const p of json.all_results) {
      expect(p.batches_processed).toBe(8);
      expect(p.time_taken).toBeGreaterThan(0);
      expect(p.avg_batch_time).toBeCloseTo(p.time_taken / p.batches_processed, 12);
    }
    const chosen = json.all_results.find(
      (p: { num_workers: number; prefetch_factor: number | null }) =>
        p.num_workers === json.optimal_config.num_workers && p.prefetch_factor === json.optimal_config.prefetch_factor,
    );
    expect(json.optimal_config.total_time).toBe(chosen.time_taken);
    expect(json.device).toBe('cpu');
    expect(json.backend_device).toMatch(/^cpu \(/);
    expect(json.model_samples_per_second['16']).toBeGreaterThan(0);
    expect(['fed', 'loader-bound']).toContain(json.recommended.basis);
    expect(json.benchmark_results.Summary).toMatch(/^NOTE: no data was given/);
    expect(json.notes.join('\n')).toMatch(/using the embedded sample data, 512 positions/);
  });

  it('given --enable-resource-monitoring on map-style data, then each point reports its loading threads, worker efficiency and cache hit rate', () => {
    const r = runMaou(
      [
        ...ON_SAMPLE_DATA,
        '--batch-size',
        '16',
        '--num-batches',
        '6',
        '--repeats',
        '1',
        '--no-streaming',
        '--workers',
        '0',
        '2',
        '--prefetch-factors',
        '2',
        '--consumption-steps',
        '0',
        '--enable-resource-monitoring',
        '--json',
        '--log-level',
        'silent',
      ],
      env,
    );
    expect(r.code).toBe(0);
    const json = JSON.parse(r.stdout);
    const [main, two] = json.all_results.map((p: { resources: unknown }) => p.resources);
    expect(main.threads.map((t: { thread: unknown }) => t.thread)).toEqual(['main']);
    expect(two.threads.map((t: { thread: unknown }) => t.thread)).toEqual([0, 1]);
    for (const p of [main, two]) {
      expect(p.worker_efficiency).toBeGreaterThan(0);
      expect(p.worker_efficiency).toBeLessThanOrEqual(1);
      expect(p.cache_hit_rate).toBeGreaterThan(0);
      expect(p.rss_bytes.peak).toBeGreaterThan(0);
      expect(p.threads[0].heap_used_bytes).toBeGreaterThan(0);
      expect(p.gpu_util_percent).toBeNull();
      expect(p.null_reasons.gpu_util_percent).toMatch(/not a GPU/);
    }
    expect(json.resource_limits.cpu_cores).toBeGreaterThanOrEqual(1);
  });

  it('given loader workers running, when Ctrl-C arrives, then the process ends promptly with 130, saying it was interrupted', async () => {
    runMaou([...ON_SAMPLE_DATA, ...oneLoaderPoint(1)], env);
    const child = spawn(
      process.execPath,
      [
        MAOU_BIN,
        ...ON_SAMPLE_DATA,
        '--batch-size',
        '8',
        '--num-batches',
        '1000000',
        '--workers',
        '2',
        '--prefetch-factors',
        '2',
        '--consumption-steps',
        '0',
        '--log-level',
        'silent',
      ],
      { env: { ...process.env, ...env } },
    );
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    await new Promise((r) => setTimeout(r, 2500));
    const t0 = Date.now();
    child.kill('SIGINT');
    const ended = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.on('exit', (code, signal) => resolve({ code, signal })),
    );
    expect(Date.now() - t0).toBeLessThan(5000);
    expect(ended.signal === 'SIGINT' || ended.code === 130).toBe(true);
    expect(stdout).toBe('');
  }, 30_000);
});
