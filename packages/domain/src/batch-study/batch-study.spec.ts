import { mulberry32 } from '../random/mulberry32';
import { estimateCriticalBatch, nearestPowerOfTwo, type ThroughputPoint } from './critical-batch';
import { estimateGradientNoise, noiseEstimators, type GradientNormSample } from './gradient-noise';
import { nextBatchToTry, summarizeMaxBatch, type BatchTry } from './max-batch-search';

// Batch time = fixed + per-sample·B, so samples/s = B/(fixed + per-sample·B) and the model's CBS is fixed ÷ per-sample.
const linearTime = (fixedMs: number, perSampleMs: number, sizes: number[]): ThroughputPoint[] =>
  sizes.map((b) => {
    const sps = (b / (fixedMs + perSampleMs * b)) * 1000;
    return { batchSize: b, samplesPerSecond: sps, ci95: [sps * 0.95, sps * 1.05] };
  });

describe('critical batch size from a sweep', () => {
  it('given batch times linear in B, then every pair recovers fixed ÷ per-sample exactly (the corrected formula)', () => {
    const est = estimateCriticalBatch(linearTime(48, 0.5, [16, 32, 64, 128, 256]))!;
    expect(est.pair_estimates).toHaveLength(10);
    for (const x of est.pair_estimates) expect(x).toBeCloseTo(96, 6);
    expect(est.gradient_noise_scale).toBe(96);
    expect(est.estimated_cbs).toBe(128);
    expect(est.cbs_exceeds_tested).toBe(false);
    expect(est.recommendation).toMatch(/within the tested range 16–256/);
    // twice the batch at a quarter more time: (sps/B) ratio = t(16)/t(32)
    expect(est.scaling_efficiency['32']).toBeCloseTo(56 / 64, 3);
    expect(est.scaling_efficiency_ci95['32']![0]).toBeLessThan(est.scaling_efficiency['32']!);
  });

  it('given throughput growing in proportion to the batch, then no pair bounds it and the largest size is reported', () => {
    const est = estimateCriticalBatch(
      [16, 32, 64].map((b) => ({ batchSize: b, samplesPerSecond: b * 10, ci95: [b * 9, b * 11] as const })),
    )!;
    expect(est).toMatchObject({ cbs_exceeds_tested: true, estimated_cbs: 64, gradient_noise_scale: null });
    expect(est.recommendation).toMatch(/Try larger batch sizes/);
  });

  it('names the ranges: all below, all well above', () => {
    expect(estimateCriticalBatch(linearTime(480, 0.5, [16, 32]))!.recommendation).toMatch(
      /below the estimated CBS of 1024/,
    );
    expect(estimateCriticalBatch(linearTime(4, 0.5, [64, 128]))!.recommendation).toMatch(
      /reducing the batch size to about 8/,
    );
    expect(estimateCriticalBatch(linearTime(4, 0.5, [64]))).toBeNull();
    expect([0.3, 3, 5.9, 96, 1000].map(nearestPowerOfTwo)).toEqual([1, 4, 8, 128, 1024]);
  });
});

// Per-sample gradients g = G + noise with known tr(Σ); the estimator must find B_simple = tr(Σ)/|G|².
const simulate = (steps: number, pieceRows: number[], seed: number): GradientNormSample[] => {
  const rand = mulberry32(seed);
  const gauss = (): number => Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
  const dims = 40;
  const G = Array.from({ length: dims }, (_, i) => (i < 10 ? 0.5 : 0)); // |G|² = 2.5
  const sigma = 1.5; // tr(Σ) = dims·σ² = 90 → B_simple = 36
  const mean = (rows: number): number[] => G.map((g) => g + (sigma * gauss()) / Math.sqrt(rows));
  const sq = (v: number[]): number => v.reduce((a, x) => a + x * x, 0);
  return Array.from({ length: steps }, () => {
    const pieces = pieceRows.map(mean);
    const total = pieceRows.reduce((a, b) => a + b, 0);
    const big = G.map((_, d) => pieces.reduce((a, p, k) => a + (p[d]! * pieceRows[k]!) / total, 0));
    return { smallRows: pieceRows, smallSquaredNorms: pieces.map(sq), bigRows: total, bigSquaredNorm: sq(big) };
  });
};

describe('gradient noise scale from gradient norms', () => {
  it.each([[[8, 8, 8, 8]], [[10, 6, 8, 8]]])(
    'given pieces of %p rows, then B_simple is tr(Σ)/|G|² within its interval',
    (rows) => {
      const g = estimateGradientNoise(simulate(400, rows, 11))!;
      expect(g.steps).toBe(400);
      expect(g.b_big).toBe(32);
      expect(g.b_simple_ci95[0]).toBeLessThan(36);
      expect(g.b_simple_ci95[1]!).toBeGreaterThan(36);
      expect(g.b_simple).toBeGreaterThan(30);
      expect(g.b_simple).toBeLessThan(43);
    },
  );

  it('given updates far below the noise scale, then B_simple is unresolved with a lower bound, not negative', () => {
    const g = estimateGradientNoise([
      { smallRows: [4, 4], smallSquaredNorms: [10, 12], bigRows: 8, bigSquaredNorm: 5.4 },
      { smallRows: [4, 4], smallSquaredNorms: [11, 9], bigRows: 8, bigSquaredNorm: 4.9 },
    ])!;
    expect(g.gradient_squared_mean).toBeLessThan(0);
    expect(g.b_simple).toBeNull();
    expect(g.b_simple_ci95[1]).toBeNull();
    expect(g.note).toMatch(/could not be told from 0/);
  });

  it('given one piece per step, then nothing can be estimated', () => {
    expect(noiseEstimators({ smallRows: [32], smallSquaredNorms: [1], bigRows: 32, bigSquaredNorm: 1 })).toBeNull();
    expect(estimateGradientNoise([])).toBeNull();
  });
});

describe('max-batch search', () => {
  const run = (fitsUpTo: number, start: number, cap: number): BatchTry[] => {
    const tries: BatchTry[] = [];
    for (let b = nextBatchToTry(tries, start, cap); b !== null; b = nextBatchToTry(tries, start, cap)) {
      tries.push({ batch_size: b, fits: b <= fitsUpTo, memory_bytes: b, reason: b <= fitsUpTo ? null : 'heap' });
      if (tries.length > 50) throw new Error('search does not end');
    }
    return tries;
  };

  it('doubles, then bisects to within 1/64 of the limit', () => {
    const tries = run(3000, 64, 65536);
    expect(tries.slice(0, 7).map((t) => t.batch_size)).toEqual([64, 128, 256, 512, 1024, 2048, 4096]);
    const r = summarizeMaxBatch(tries, 2 ** 32, 'one pass');
    expect(r.max_batch_size).toBeLessThanOrEqual(3000);
    expect(r.first_failing! - r.max_batch_size).toBeLessThanOrEqual(Math.floor(r.max_batch_size / 64));
    expect(r).toMatchObject({ limited_by: 'memory', failure_reason: 'heap', memory_limit_bytes: 2 ** 32 });
  });

  it('halves when the start does not fit, stops at the cap, and reports none when 1 fails', () => {
    expect(summarizeMaxBatch(run(40, 256, 65536), null, '').max_batch_size).toBeGreaterThanOrEqual(40 - 1);
    expect(summarizeMaxBatch(run(10_000, 64, 1000), null, '')).toMatchObject({
      max_batch_size: 1000,
      limited_by: 'cap',
      first_failing: null,
    });
    expect(summarizeMaxBatch(run(0, 4, 100), null, '')).toMatchObject({ max_batch_size: 0, first_failing: 1 });
  });
});
