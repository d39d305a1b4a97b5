import { assessRun, decideStop, mulberry32, type BatchTiming } from '@maou/bench-domain';
import { StopWatch } from './stop-watch';

// A steady process with autocorrelated noise: the stopping rule judged after every batch is the reference. The stop
// watch judges every 2 % of the batches run: it never stops before the reference, stops where the rule says stop,
// and stops exactly at a limit.
const batches = (seed: number, n: number, noise: number): BatchTiming[] => {
  const rnd = mulberry32(seed);
  const gauss = (): number => Math.sqrt(-2 * Math.log(rnd() + 1e-12)) * Math.cos(2 * Math.PI * rnd());
  let ar = 0;
  let startMs = 0;
  return Array.from({ length: n }, (_, index) => {
    ar = 0.7 * ar + gauss() * noise;
    const wallMs = (index < 3 ? 4 : 1) * 50 * (1 + ar);
    startMs += wallMs;
    return {
      index,
      warmup: false,
      samples: 32,
      startMs: startMs - wallMs,
      wallMs,
      phases: { dataWait: 0, hostToDevice: 0, forward: 0, loss: 0, backward: 0, optimizer: 0, other: wallMs },
      loss: 1,
      numTensors: 0,
    };
  });
};

const run = { warmup: 3, planned: 5000, batchesPerEpoch: 20_000 };

/** The batch after which `stops` first says stop, with the elapsed time of the batches so far. */
const firstStop = (series: BatchTiming[], stops: (k: number, elapsedMs: number) => boolean): number => {
  let elapsed = 0;
  for (let k = 1; k <= series.length; k++) {
    elapsed += series[k - 1]!.wallMs;
    if (stops(k, elapsed)) return k;
  }
  return -1;
};

describe('StopWatch', () => {
  it.each([1, 2, 3])(
    'given a steady run (seed %i), then it stops where the rule says so, not before the rule judged every batch',
    (seed) => {
      const series = batches(seed, 3000, 0.02);
      const rule = { targetPrecision: 0.05, timeBudgetMs: 1e9 };
      const judge = (k: number, elapsedMs = 0): boolean => {
        const a = assessRun(
          { wallMs: series.slice(0, k).map((b) => b.wallMs), cpu: [], disturbed: series.slice(0, k).map(() => false) },
          { minWarmup: run.warmup, batchesPerEpoch: run.batchesPerEpoch },
        );
        return (
          decideStop(a, {
            batches: k,
            batchesPerEpoch: run.batchesPerEpoch,
            cap: run.planned,
            elapsedMs,
            budgetMs: rule.timeBudgetMs,
            targetPrecision: rule.targetPrecision,
            minBatches: run.warmup + 2,
          }) !== null
        );
      };
      const reference = firstStop(series, judge);
      let judged = 0;
      const watch = new StopWatch(rule, run, (...args) => {
        judged++;
        return assessRun(...args);
      });
      const stopped = firstStop(series, (k, elapsedMs) => watch.shouldStop(series.slice(0, k), elapsedMs));
      // every batch up to 50, then every 2 %: ~160 judgements for ~450 batches instead of ~450
      expect(judged).toBeLessThan(stopped / 2);
      expect(reference).toBeGreaterThan(100);
      expect(stopped).toBeGreaterThanOrEqual(reference);
      expect(stopped).toBeLessThan(1.2 * reference);
      expect(judge(stopped)).toBe(true);
      expect(watch.conclude(series.slice(0, stopped)).epochExtras.stopping?.reason).toBe('precision-reached');
    },
  );

  it('given a cap or a budget that comes first, then it stops at exactly that batch', () => {
    const series = batches(4, 3000, 0.3);
    const rule = { targetPrecision: 0.001, timeBudgetMs: 1e9 };
    const capped = new StopWatch(rule, { ...run, planned: 777 });
    expect(firstStop(series, (k, e) => capped.shouldStop(series.slice(0, k), e))).toBe(777);
    expect(capped.conclude(series.slice(0, 777)).epochExtras.stopping?.reason).toBe('max-batches');
    const budget = series.slice(0, 1234).reduce((s, b) => s + b.wallMs, 0);
    const timed = new StopWatch({ ...rule, timeBudgetMs: budget }, run);
    expect(firstStop(series, (k, e) => timed.shouldStop(series.slice(0, k), e))).toBe(1234);
    expect(timed.conclude(series.slice(0, 1234)).epochExtras.stopping?.reason).toBe('time-budget');
  });
});
