import { summarize, type SeriesSummary } from '../stats/summary';
import { twoSidedP } from '../stats/student-t';

/** Outcome of comparing run B against run A on their steady-state batch times. @public */
export interface RunComparison {
  readonly a: SeriesSummary;
  readonly b: SeriesSummary;
  /** mean batch time of B ÷ that of A; < 1 means B is faster */
  readonly ratio: number;
  readonly ratio_ci95: readonly [number, number];
  readonly welch_t: number;
  readonly degrees_of_freedom: number;
  readonly p_value: number;
  readonly alpha: number;
  readonly verdict: 'b-faster' | 'b-slower' | 'no-significant-difference';
  readonly method: string;
}

/**
 * Welch's t-test on the two series of batch times (unequal variances), and the ratio of means with a
 * delta-method interval. A difference counts only when p < alpha AND the ratio leaves the noise band.
 * @public
 */
export const compareRuns = (
  aMs: readonly number[],
  bMs: readonly number[],
  alpha = 0.05,
  noiseBand = 0.02,
): RunComparison => {
  if (aMs.length < 2 || bMs.length < 2) throw new Error('each run needs at least 2 measured batches to compare');
  const a = summarize(aMs);
  const b = summarize(bMs);
  const va = a.stdev ** 2 / a.n;
  const vb = b.stdev ** 2 / b.n;
  const se = Math.sqrt(va + vb);
  const t = se === 0 ? (a.mean === b.mean ? 0 : Infinity) : (b.mean - a.mean) / se;
  const df = se === 0 ? a.n + b.n - 2 : (va + vb) ** 2 / (va ** 2 / (a.n - 1) + vb ** 2 / (b.n - 1));
  const p = Number.isFinite(t) ? twoSidedP(t, df) : 0;
  const ratio = b.mean / a.mean;
  // Var(B/A) ≈ ratio² (varB/B² + varA/A²)
  const seRatio = ratio * Math.sqrt(vb / b.mean ** 2 + va / a.mean ** 2);
  const significant = p < alpha && Math.abs(ratio - 1) > noiseBand;
  return {
    a,
    b,
    ratio,
    ratio_ci95: [ratio - 1.96 * seRatio, ratio + 1.96 * seRatio],
    welch_t: t,
    degrees_of_freedom: df,
    p_value: p,
    alpha,
    verdict: !significant ? 'no-significant-difference' : ratio < 1 ? 'b-faster' : 'b-slower',
    method: `Welch t-test on steady-state batch times (alpha ${alpha}); a difference also has to exceed ±${noiseBand * 100} % of the mean`,
  };
};

/** Keys whose values differ between two flat records, for the environment diff. @public */
export const diffRecords = (
  a: Readonly<Record<string, unknown>>,
  b: Readonly<Record<string, unknown>>,
): { key: string; a: unknown; b: unknown }[] =>
  [...new Set([...Object.keys(a), ...Object.keys(b)])]
    .filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k]))
    .map((k) => ({ key: k, a: a[k], b: b[k] }));
