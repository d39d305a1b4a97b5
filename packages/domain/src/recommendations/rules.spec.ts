import { closePhases, type BatchTiming } from '../timing/phases';
import { computeTrainingMetrics } from '../timing/training-metrics';
import { estimateEpoch } from '../estimate/epoch-estimate';
import { assessRun } from '../estimate/run-assessment';
import type { RecommendationContext } from './recommendation-context';
import { recommend } from './rules';

const run = (dataWait: number, jitter = 0): BatchTiming[] =>
  Array.from({ length: 20 }, (_, i) => {
    const wall = 100 + (i % 2 ? jitter : -jitter);
    return {
      index: i,
      warmup: false,
      samples: 64,
      startMs: 0,
      ...closePhases(wall, { dataWait, hostToDevice: 1, forward: 30, loss: 2, backward: 30, optimizer: 5 }),
      loss: 1,
      numTensors: 50,
    };
  });

const ctx = (
  batches: BatchTiming[],
  settings: Partial<RecommendationContext['settings']> = {},
): RecommendationContext => {
  const metrics = computeTrainingMetrics(batches, 2, 2);
  return {
    metrics,
    epoch: estimateEpoch(
      metrics,
      100,
      6400,
      assessRun(
        { wallMs: batches.map((b) => b.wallMs), cpu: [], disturbed: [] },
        { minWarmup: 2, batchesPerEpoch: 100 },
      ),
    ),
    resources: null,
    settings: {
      batchSize: 64,
      workers: 2,
      prefetchFactor: 2,
      pinMemory: false,
      devicePrefetch: 3,
      backend: 'wasm',
      fallback: false,
      heapLimitBytes: 4 * 1024 ** 3,
      threads: 1,
      cores: 2,
      warmupBatches: 2,
      ...settings,
    },
  };
};

/** The run of `run(0)` as a streaming epoch of 8 reads, none crossed yet: the first read took `readMs`. */
const streamed = (readMs: number, besideStep = true): RecommendationContext => {
  const batches = run(0).map((b, i) => (i === 0 ? { ...b, fileOpen: { files: 1, readMs } } : b));
  const metrics = computeTrainingMetrics(batches, 2, 2);
  const a = assessRun(
    { wallMs: batches.map((b) => b.wallMs), cpu: [], disturbed: [], opens: batches.map((b) => b.fileOpen) },
    { minWarmup: 2, batchesPerEpoch: 100, files: { readsPerEpoch: 8, leadBatches: besideStep ? 4 : 0, besideStep } },
  );
  return { ...ctx(batches), metrics, epoch: estimateEpoch(metrics, 100, 6400, a) };
};

describe('recommendation rules', () => {
  it('given file boundaries that cost more than 1 % of a streaming epoch, then a prefetch factor whose batches cover the wait', () => {
    // 900 ms read − 4 batches of 100 ms ready = 500 ms at each of 7 boundaries: 3,500 ms of a ~13.6 s epoch
    const r = recommend(streamed(900)).find((x) => x.rule === 'file-boundaries')!;
    expect(r.flag).toBe('--prefetch-factor');
    // 5 more batches over 2 workers: 2 + 3
    expect(r.value).toBe('5');
    expect(r.message).toMatch(/7 file boundaries cost .* ~500 ms each/);
    expect(r.evidence).toMatch(/7 × 500 ms \(read-time\)/);
    // a read the batches ready already cover: nothing to say
    expect(recommend(streamed(350)).map((x) => x.rule)).not.toContain('file-boundaries');
    // the main thread's reads stop the step: a worker, not a prefetch factor
    expect(recommend(streamed(900, false)).find((x) => x.rule === 'file-boundaries')?.flag).toBe(
      '--dataloader-workers',
    );
  });
  it('given a 30 % data wait, then input-bound fires with the worker flag and the triggering figure', () => {
    const recs = recommend(ctx(run(30)));
    const r = recs.find((x) => x.rule === 'input-bound');
    expect(r?.flag).toBe('--dataloader-workers');
    expect(r?.value).toBe('2');
    expect(r?.evidence).toMatch(/data_wait share 0\.300 > 0\.2/);
  });
  it('given no data wait and several workers, then compute-bound fires and input-bound does not', () => {
    const rules = recommend(ctx(run(0), { workers: 4 })).map((r) => r.rule);
    expect(rules).toContain('compute-bound');
    expect(rules).not.toContain('input-bound');
  });
  it('given very noisy batches, then variability and more-batches fire', () => {
    const rules = recommend(ctx(run(0, 60))).map((r) => r.rule);
    expect(rules).toEqual(expect.arrayContaining(['variability', 'more-batches']));
  });
  it('given a loose epoch estimate, then more-batches says the same ± as the estimate', () => {
    const c = ctx(run(0, 60));
    const r = recommend(c).find((x) => x.rule === 'more-batches')!;
    expect(r.message).toContain(`±${(c.epoch.half_width_fraction! * 100).toFixed(1)} %`);
    // the mean batch time's own interval is a different, narrower figure: the rule must not print it
    const [lo, hi] = c.metrics.batch_ms.ci95;
    expect(r.message).not.toContain(`±${(((hi - lo) / 2 / c.metrics.batch_ms.mean) * 100).toFixed(1)} %`);
  });
  it('given an epoch interval open above, then more-batches says so and asks for no infinite count', () => {
    const c = ctx(run(0, 60));
    const open = {
      ...c,
      epoch: {
        ...c.epoch,
        predicted_ms_ci95: [c.epoch.predicted_ms / 2, Infinity] as const,
        half_width_fraction: Infinity,
      },
    };
    const r = recommend(open).find((x) => x.rule === 'more-batches')!;
    expect(r).toMatchObject({ flag: null, value: null, message: expect.stringContaining('no upper bound') });
    expect(JSON.stringify(r)).not.toMatch(/Infinity|NaN/);
  });
  it('given a fallback backend and a large batch on a bounded heap, then both backend rules are evaluated on their capabilities, not names', () => {
    expect(recommend(ctx(run(0), { backend: 'cpu', fallback: true, heapLimitBytes: null })).map((r) => r.rule)).toEqual(
      expect.arrayContaining(['fallback-backend']),
    );
    expect(recommend(ctx(run(0), { backend: 'cpu', heapLimitBytes: null })).map((r) => r.rule)).not.toContain(
      'fallback-backend',
    );
    expect(recommend(ctx(run(0), { batchSize: 1024 })).map((r) => r.rule)).toContain('wasm-heap');
    expect(recommend(ctx(run(0), { batchSize: 1024, heapLimitBytes: null })).map((r) => r.rule)).not.toContain(
      'wasm-heap',
    );
    expect(recommend(ctx(run(0))).map((r) => r.rule)).not.toContain('wasm-heap');
  });
});
