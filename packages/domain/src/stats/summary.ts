/** Order statistics and a 95 % interval of the mean for one measured series. @public */
export interface SeriesSummary {
  readonly n: number;
  readonly mean: number;
  readonly median: number;
  readonly p90: number;
  readonly p99: number;
  readonly min: number;
  readonly max: number;
  readonly stdev: number;
  readonly ci95: readonly [number, number];
}

/** Linear-interpolated quantile of sorted values, q in [0, 1]. @public */
export const quantileSorted = (sorted: readonly number[], q: number): number => {
  if (sorted.length === 0) return Number.NaN;
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
};

// Two-sided 97.5 % Student t quantiles for small samples; the normal value beyond 30.
const T975 = [
  12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131, 2.12, 2.11,
  2.101, 2.093, 2.086, 2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042,
];

/** t quantile for a 95 % two-sided interval with `df` degrees of freedom. @public */
export const tQuantile95 = (df: number): number => (df < 1 ? Number.NaN : df <= 30 ? T975[df - 1]! : 1.96);

/** Summarises a series; an empty series yields NaN figures with n = 0. @public */
export const summarize = (values: readonly number[]): SeriesSummary => {
  const n = values.length;
  const sorted = [...values].sort((a, b) => a - b);
  const mean = n === 0 ? Number.NaN : values.reduce((s, v) => s + v, 0) / n;
  const variance = n < 2 ? 0 : values.reduce((s, v) => s + (v - mean) ** 2, 0) / (n - 1);
  const stdev = Math.sqrt(variance);
  const half = n < 2 ? 0 : tQuantile95(n - 1) * (stdev / Math.sqrt(n));
  return {
    n,
    mean,
    stdev,
    median: quantileSorted(sorted, 0.5),
    p90: quantileSorted(sorted, 0.9),
    p99: quantileSorted(sorted, 0.99),
    min: n === 0 ? Number.NaN : sorted[0]!,
    max: n === 0 ? Number.NaN : sorted[n - 1]!,
    ci95: [mean - half, mean + half],
  };
};
