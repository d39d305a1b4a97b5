import { mulberry32 } from '../random/mulberry32';
import { flagDisturbed, type BatchCpu } from '../timing/contention';
import { batchTrend } from './batch-trend';
import { assessRun, decideStop, RUN_TO_RUN_SPREAD, type RunSeries } from './run-assessment';
import { RESIDUAL_FALL } from './residual-fall';

// Batch times as the issue saw them: a slow start, a decay from +15 % to the floor over ~60 batches, and
// autocorrelated noise with the odd GC spike. `decay` 0 is a steady process.
const epoch = (seed: number, n: number, opts: { floor?: number; decay?: number; noise?: number } = {}): number[] => {
  const { floor = 60, decay = 0.15, noise = 0.05 } = opts;
  const rnd = mulberry32(seed);
  const gauss = (): number => Math.sqrt(-2 * Math.log(rnd() + 1e-12)) * Math.cos(2 * Math.PI * rnd());
  let ar = 0;
  return Array.from({ length: n }, (_, i) => {
    ar = 0.5 * ar + gauss() * noise;
    const spike = rnd() < 0.02 ? 3 * noise : 0;
    return (i < 3 ? 4 : 1) * floor * (1 + decay * Math.exp(-i / 20) + ar + spike);
  });
};
const quiet = (wallMs: number[]): RunSeries => ({ wallMs, cpu: [], disturbed: wallMs.map(() => false) });

describe('batchTrend', () => {
  it('finds no trend in a steady series and a significant one in a decaying series', () => {
    expect(batchTrend(epoch(1, 100, { decay: 0 }))?.significant).toBe(false);
    const falling = Array.from({ length: 80 }, (_, i) => 70 - i * 0.15 + (i % 3) - 1);
    const t = batchTrend(falling)!;
    expect(t.significant).toBe(true);
    expect(t.slope_ci95[1]).toBeLessThan(0);
    expect(t.slope_ms_per_batch).toBeCloseTo(-0.15, 1);
  });
  it('needs eight batches', () => expect(batchTrend([1, 2, 3, 4, 5, 6, 7])).toBeNull());
});

describe('assessRun', () => {
  it('given the decay of the issue cut off early, then the interval reaches down to where the decay leads', () => {
    const full = epoch(3, 400);
    const a = assessRun(quiet(full.slice(0, 25)), { minWarmup: 3, batchesPerEpoch: 400 });
    const truth = full.reduce((s, x) => s + x, 0);
    expect(a.intervalMs[0]).toBeLessThanOrEqual(truth);
    expect(a.intervalMs[1]).toBeGreaterThanOrEqual(truth);
    expect(a.halfWidthFraction).toBeGreaterThan(0.05);
  });

  it('given a run stopped while batch time still falls, then it says so and the interval reaches down the trend', () => {
    const wall = Array.from({ length: 40 }, (_, i) => 100 - i + (i % 2));
    const a = assessRun(quiet(wall), { minWarmup: 3, batchesPerEpoch: 400 });
    expect(a.trending).toBe(true);
    expect(a.notes.join(' ')).toMatch(/still falling/);
    expect(a.intervalMs[0]).toBeLessThan(a.predictedMs * 0.7);
  });

  it('given a flat stretch, a step up and a fall in the latest batches, then it is still trending although a line over all of them is not', () => {
    // the shape of the step's CPU time in lite epochs before the replicas' longer warm-up: a dip, a plateau, a fall
    const wall = Array.from({ length: 84 }, (_, i) => (i < 40 ? 90 : 100 - (i - 40) * 0.5) + ((i * 7) % 5) - 2);
    expect(batchTrend(wall.slice(3))?.significant).toBe(false);
    const a = assessRun(quiet(wall), { minWarmup: 3, batchesPerEpoch: 400 });
    expect(a.trending).toBe(true);
    expect(a.notes.join(' ')).toMatch(/still falling/);
    // predicted from the latest third, not the plateau's level
    expect(a.meanMs).toBeLessThan(90);
  });

  it('given a steady run whose later batches run 2.5 % faster, unseen by the batches run, then the prediction counts them', () => {
    // what full epochs did after their first 40 %: no trend before the cap, a little faster after it
    const full = epoch(11, 200, { decay: 0, noise: 0.004 }).map((w, i) => (i >= 40 ? w * 0.975 : w));
    const truth = full.reduce((s, x) => s + x, 0);
    const a = assessRun(quiet(full.slice(0, 40)), { minWarmup: 3, batchesPerEpoch: 200, runToRun: 0 });
    expect(a.trending).toBe(false);
    expect(a.intervalMs[0]).toBeLessThanOrEqual(truth);
    expect(a.intervalMs[1]).toBeGreaterThanOrEqual(truth);
    // issue 30: the point counts the fall (a low-side allowance alone left it 2 % high here)
    expect(Math.abs(a.predictedMs / truth - 1)).toBeLessThan(0.005);
  });

  it('given a long look, then less of the fall is ahead of it', () => {
    const wall = epoch(12, 1200, { decay: 0, noise: 0.004 });
    const a = assessRun(quiet(wall), { minWarmup: 3, batchesPerEpoch: 3000, runToRun: 0 });
    const plain = a.basis.observedMs + a.meanMs * 1800;
    // (400 / 1,200)² of the 2.5 %, not all of it
    expect(1 - (a.predictedMs - a.basis.observedMs) / (plain - a.basis.observedMs)).toBeCloseTo(0.025 / 9, 6);
  });

  // What the interval promises: run the stopping rule on many simulated epochs and compare with each epoch's total.
  it('given 200 simulated epochs stopped by the rule, then the interval covers the full epoch at least 95 % of the time', () => {
    let covered = 0;
    const trials = 200;
    for (let t = 0; t < trials; t++) {
      const full = epoch(100 + t, 150 + (t % 5) * 100);
      const truth = full.reduce((s, x) => s + x, 0);
      // the rule cannot stop before 3 warm-up and 20 steady batches (MIN_STEADY_BATCHES), and the cap is 100
      let n = 23;
      for (; n < full.length; n++) {
        const a = assessRun(quiet(full.slice(0, n)), { minWarmup: 3, batchesPerEpoch: full.length, runToRun: 0 });
        if (
          decideStop(a, {
            batches: n,
            batchesPerEpoch: full.length,
            cap: 100,
            elapsedMs: 0,
            budgetMs: Infinity,
            targetPrecision: 0.05,
          })
        )
          break;
      }
      const a = assessRun(quiet(full.slice(0, n)), { minWarmup: 3, batchesPerEpoch: full.length, runToRun: 0 });
      if (truth >= a.intervalMs[0] && truth <= a.intervalMs[1]) covered++;
    }
    expect(covered / trials).toBeGreaterThanOrEqual(0.95);
  });

  // Issue 30: with no cap typed, the rule and the 60 s budget decide; on a long epoch it must get to ±5 % in time.
  it('given 2,000-batch epochs and no cap, then the rule reaches ±5 % within the 60 s budget and covers the epoch', () => {
    const outcomes = Array.from({ length: 8 }, (_, t) => {
      const full = epoch(500 + t, 2000, { floor: 35 });
      let elapsed = 0;
      let n = 0;
      let reason = null;
      while (!reason) {
        elapsed += full[n++]!;
        const a = assessRun(quiet(full.slice(0, n)), { minWarmup: 10, batchesPerEpoch: 2000 });
        reason = decideStop(a, {
          batches: n,
          batchesPerEpoch: 2000,
          cap: 2000,
          elapsedMs: elapsed,
          budgetMs: 60_000,
          targetPrecision: 0.05,
          minBatches: 12,
        });
      }
      const a = assessRun(quiet(full.slice(0, n)), { minWarmup: 10, batchesPerEpoch: 2000 });
      const truth = full.reduce((s, x) => s + x, 0);
      return { reason, elapsed, covered: truth >= a.intervalMs[0] && truth <= a.intervalMs[1] };
    });
    expect(outcomes.map((o) => o.reason)).toEqual(outcomes.map(() => 'precision-reached'));
    expect(Math.max(...outcomes.map((o) => o.elapsed))).toBeLessThan(60_000);
    expect(outcomes.filter((o) => o.covered).length).toBeGreaterThanOrEqual(7);
  });

  it('given a few disturbed batches, then they are left out and said to be; given most, then the low end is the quiet floor', () => {
    const wall = epoch(7, 60, { decay: 0 });
    const some = wall.map((w, i) => (i % 10 === 5 ? w * 3 : w));
    const a = assessRun(
      { wallMs: some, cpu: [], disturbed: some.map((_, i) => i % 10 === 5) },
      { minWarmup: 3, batchesPerEpoch: 200 },
    );
    expect(a.excludedDisturbed).toBeGreaterThan(0);
    expect(a.meanMs).toBeLessThan(66);
    expect(a.notes.join(' ')).toMatch(/left out/);
    const busy = wall.map((w) => w * 2);
    const cpu: BatchCpu[] = wall.map((w) => ({ processMs: w * 2, othersMs: w * 2, stealMs: 0, cores: 2 }));
    const b = assessRun({ wallMs: busy, cpu, disturbed: busy.map(() => true) }, { minWarmup: 3, batchesPerEpoch: 200 });
    expect(b.disturbed).toBe(true);
    expect(b.intervalMs[0]).toBeLessThanOrEqual(wall.reduce((s, x) => s + x, 0) + 140 * 62);
    // a quiet run whose own CPU work is 3 % below this run's (run-to-run spread) still lands inside
    const floor = wall.reduce((s, x) => s + x, 0) + 140 * (wall.slice(3).reduce((s, x) => s + x, 0) / 57);
    expect(b.intervalMs[0]).toBeLessThanOrEqual(0.97 * floor);
    // and one whose batches to come also fall as far as the interval allows (twice the residual fall)
    const steadyMean = wall.slice(b.steadyStart).reduce((s, x) => s + x, 0) / (60 - b.steadyStart);
    const falling = wall.reduce((s, x) => s + x, 0) + 140 * steadyMean * (1 - 2 * RESIDUAL_FALL);
    expect(b.intervalMs[0]).toBeLessThanOrEqual(falling * (1 - RUN_TO_RUN_SPREAD) * 1.001);
    expect(b.intervalMs[1]).toBeGreaterThan(b.predictedMs);
  });
});

describe('decideStop', () => {
  const ctx = { batchesPerEpoch: 1000, cap: 100, elapsedMs: 0, budgetMs: 60_000, targetPrecision: 0.05 };
  it('stops when steady and precise, at the cap, at the budget, and at the end of the epoch', () => {
    const steady = assessRun(quiet(epoch(9, 80, { decay: 0, noise: 0.01 })), { minWarmup: 3, batchesPerEpoch: 1000 });
    expect(decideStop(steady, { ...ctx, batches: 80 })).toBe('precision-reached');
    const noisy = assessRun(quiet(epoch(9, 20, { decay: 0, noise: 0.8 })), { minWarmup: 3, batchesPerEpoch: 1000 });
    expect(decideStop(noisy, { ...ctx, batches: 20 })).toBeNull();
    expect(decideStop(noisy, { ...ctx, batches: 20, elapsedMs: 60_000 })).toBe('time-budget');
    expect(decideStop(noisy, { ...ctx, batches: 1, elapsedMs: 60_000, minBatches: 5 })).toBeNull();
    expect(decideStop(noisy, { ...ctx, batches: 20, cap: 20 })).toBe('max-batches');
    expect(decideStop(noisy, { ...ctx, batches: 20, batchesPerEpoch: 20 })).toBe('epoch-complete');
  });
});

describe('flagDisturbed', () => {
  it('flags batches where others took CPU this run would have used, not where they used spare cores', () => {
    const wall = Array.from({ length: 20 }, () => 100);
    const busy = wall.map((_, i): BatchCpu => ({ processMs: 190, othersMs: i >= 10 ? 100 : 2, stealMs: 0, cores: 2 }));
    const flags = flagDisturbed(wall, busy);
    expect(flags.slice(0, 7).some(Boolean)).toBe(false);
    expect(flags.slice(13).every(Boolean)).toBe(true);
    const bigBox = wall.map((): BatchCpu => ({ processMs: 190, othersMs: 400, stealMs: 0, cores: 16 }));
    expect(flagDisturbed(wall, bigBox).some(Boolean)).toBe(false);
    expect(
      flagDisturbed(
        wall,
        wall.map(() => undefined),
      ).some(Boolean),
    ).toBe(false);
  });
});
