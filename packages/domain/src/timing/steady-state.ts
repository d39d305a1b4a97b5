import { quantileSorted } from '../stats/summary';

/**
 * First batch index counted as steady state.
 * It is never before `minWarmup` (the user's warm-up, a fixed minimum), and later when the batches right after it
 * are still slower than the tail's typical time by more than `tolerance` (e.g. JIT or allocator warm-up).
 * At least `minMeasured` batches are always left to measure.
 * @public
 */
export const detectSteadyStart = (
  batchMs: readonly number[],
  minWarmup: number,
  options: { readonly tolerance?: number; readonly window?: number; readonly minMeasured?: number } = {},
): number => {
  const { tolerance = 0.5, window = 3, minMeasured = 2 } = options;
  const n = batchMs.length;
  const latest = Math.max(0, n - minMeasured);
  const start = Math.min(Math.max(0, minWarmup), latest);
  const tail = [...batchMs.slice(Math.floor((start + n) / 2))].sort((a, b) => a - b);
  const typical = quantileSorted(tail, 0.5);
  if (!Number.isFinite(typical)) return start;
  for (let k = start; k < latest; k++) {
    const next = batchMs.slice(k, k + window);
    if (next.every((ms) => ms <= typical * (1 + tolerance))) return k;
  }
  return latest;
};

/**
 * Warm-up the user asked for, clamped so that at least `minMeasured` batches are measured when the run has that many.
 * @public
 */
export const clampWarmup = (requested: number, plannedBatches: number, minMeasured = 2): number =>
  Math.max(0, Math.min(requested, plannedBatches - minMeasured));
