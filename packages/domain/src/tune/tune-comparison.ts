import { compareRuns, type RunComparison } from '../compare/compare-runs';
import type { BenchmarkTrainingReport } from '../report/benchmark-report';

/**
 * One measured leg of an A/B/A/B tune: the time per sample of each steady batch (so batch sizes compare), and the
 * machine's wander its epoch estimate counted for a look of its length (the run-to-run term, 95 %).
 * @public
 */
export interface TuneLeg {
  readonly msPerSample: readonly number[];
  readonly wander: number;
}

/** A leg from a run's report: the batches from its steady start on. @public */
export const legOf = (
  report: Pick<BenchmarkTrainingReport, 'batches' | 'training_metrics' | 'epoch_estimate'>,
): TuneLeg => ({
  msPerSample: report.batches
    .filter((b) => b.index >= report.training_metrics.steady_state_start && b.samples > 0)
    .map((b) => b.wallMs / b.samples),
  wander: report.epoch_estimate.run_to_run?.fraction ?? 0,
});

/** The gain of a candidate over the baseline, measured in the same run. @public */
export interface TuneComparison {
  /** samples/s of the candidate ÷ the baseline's − 1 (0.30: 1.3× as fast) */
  readonly gain: number;
  /** 95 %: the comparison's interval of the ratio, widened by the wander band in quadrature; null above: open */
  readonly interval: readonly [number, number | null];
  /** faster beyond the test and the wander band, the interval above 0 */
  readonly significant: boolean;
  readonly verdict: 'faster' | 'slower' | 'no measurable gain';
  /** the share the ratio had to leave: the legs' wander, shrunk by the legs on each side */
  readonly wander_band: number;
  readonly legs: { readonly baseline: number; readonly candidate: number };
  /** `benchmark-compare`'s comparison of the pooled steady batches (per sample) */
  readonly comparison: RunComparison;
}

/**
 * The baseline's legs against a candidate's, by `benchmark-compare`'s test (Welch on the pooled per-sample batch
 * times) with its noise band set to the machine's wander: one leg's mean strays up to `w` (95 %) from the machine's
 * longer-run speed, so a side of k interleaved legs up to w/√k and the difference of two sides w·√(2/k). A change
 * counts only when the ratio leaves that band, which the batches of one leg cannot show.
 * @public
 */
export const compareLegs = (
  baseline: readonly TuneLeg[],
  candidate: readonly TuneLeg[],
  alpha = 0.05,
): TuneComparison => {
  const k = Math.min(baseline.length, candidate.length);
  if (k < 1) throw new Error('each side needs at least one measured leg');
  const wander = Math.max(...[...baseline, ...candidate].map((l) => l.wander));
  const band = wander * Math.sqrt(2 / k);
  const comparison = compareRuns(
    baseline.flatMap((l) => l.msPerSample),
    candidate.flatMap((l) => l.msPerSample),
    alpha,
    band,
  );
  // ratio = candidate's time per sample ÷ the baseline's, so the gain in samples/s is 1/ratio − 1
  const r = comparison.ratio;
  const half = Math.hypot((comparison.ratio_ci95[1] - comparison.ratio_ci95[0]) / 2, band * r);
  const interval: [number, number | null] = [1 / (r + half) - 1, r - half > 0 ? 1 / (r - half) - 1 : null];
  // The verdict and the printed interval say the same: beyond the test and the band, and the interval clear of 0.
  const faster = comparison.verdict === 'b-faster' && interval[0] > 0;
  const slower = comparison.verdict === 'b-slower' && interval[1] !== null && interval[1] < 0;
  return {
    gain: 1 / r - 1,
    interval,
    significant: faster,
    verdict: faster ? 'faster' : slower ? 'slower' : 'no measurable gain',
    wander_band: band,
    legs: { baseline: baseline.length, candidate: candidate.length },
    comparison,
  };
};

/** Samples per second over legs, pooled: 1000 ÷ the mean time per sample. @public */
export const legsSamplesPerSecond = (legs: readonly TuneLeg[]): number => {
  const all = legs.flatMap((l) => l.msPerSample);
  return all.length ? 1000 / (all.reduce((s, x) => s + x, 0) / all.length) : 0;
};
