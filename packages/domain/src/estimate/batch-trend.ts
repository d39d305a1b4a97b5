import { tQuantile95 } from '../stats/summary';

/** A straight-line fit of batch time against batch index, on block means. @public */
export interface BatchTrend {
  readonly slope_ms_per_batch: number;
  readonly slope_ci95: readonly [number, number];
  /** slope × batches fitted ÷ mean: how much the batch time moved across the fitted batches */
  readonly relative_change: number;
  /** the slope's interval excludes 0 and the change is at least `material` */
  readonly significant: boolean;
  readonly blocks: number;
  /** 95 % half-width of the mean from the spread of the block means (batch times are autocorrelated) */
  readonly mean_half_width_ms: number;
}

/**
 * Fits batch time against index on the means of 4–10 consecutive blocks: block means are close to independent and
 * normal where single batches are neither (GC spikes, batches slowed together by a busy neighbour), so the slope's
 * t-interval means what it says. Null below 8 values. Leading values that do not fill a block are dropped.
 * @public
 */
export const batchTrend = (values: readonly number[], material = 0.03): BatchTrend | null => {
  const n = values.length;
  if (n < 8) return null;
  const k = Math.max(4, Math.min(10, Math.floor(n / 4)));
  const size = Math.floor(n / k);
  const offset = n - k * size;
  const xs: number[] = [];
  const ys: number[] = [];
  for (let b = 0; b < k; b++) {
    const block = values.slice(offset + b * size, offset + (b + 1) * size);
    xs.push(offset + b * size + (size - 1) / 2);
    ys.push(block.reduce((s, v) => s + v, 0) / size);
  }
  const mx = xs.reduce((s, v) => s + v, 0) / k;
  const my = ys.reduce((s, v) => s + v, 0) / k;
  const sxx = xs.reduce((s, x) => s + (x - mx) ** 2, 0);
  const slope = xs.reduce((s, x, i) => s + (x - mx) * (ys[i]! - my), 0) / sxx;
  const resid = ys.reduce((s, y, i) => s + (y - my - slope * (xs[i]! - mx)) ** 2, 0) / (k - 2);
  const half = tQuantile95(k - 2) * Math.sqrt(resid / sxx);
  const spread = ys.reduce((s, y) => s + (y - my) ** 2, 0) / (k - 1);
  const relative = my > 0 ? (slope * k * size) / my : 0;
  return {
    slope_ms_per_batch: slope,
    slope_ci95: [slope - half, slope + half],
    relative_change: relative,
    significant: Math.abs(slope) > half && Math.abs(relative) >= material,
    blocks: k,
    mean_half_width_ms: tQuantile95(k - 1) * Math.sqrt(spread / k),
  };
};
