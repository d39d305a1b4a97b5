/** One attempt of the max-batch search: did a training step of this many rows fit, and what memory did it take. @public */
export interface BatchTry {
  readonly batch_size: number;
  readonly fits: boolean;
  /** the memory figure the backend reports after the step (wasm: the largest replica heap; webgpu: GPU bytes allocated) */
  readonly memory_bytes: number | null;
  /** why it did not fit, in the backend's words */
  readonly reason: string | null;
}

/** What the search found. @public */
export interface MaxBatchResult {
  /** the largest batch that fitted; 0 when none did */
  readonly max_batch_size: number;
  /** the smallest batch that did not fit; null when the search stopped at the cap */
  readonly first_failing: number | null;
  readonly limited_by: 'memory' | 'cap';
  readonly memory_bytes_at_max: number | null;
  readonly memory_limit_bytes: number | null;
  readonly failure_reason: string | null;
  /** what "fits" means on this backend */
  readonly definition: string;
  readonly tries: readonly BatchTry[];
}

/** Bisection stops when the gap between fitting and failing sizes is at most this share of the fitting one. @public */
export const MAX_BATCH_RESOLUTION = 1 / 64;

/**
 * The next batch size to try, or null when the search is done: double from `start` until a size fails (or the
 * cap is reached), halve while nothing fits yet, then bisect between the largest fit and the smallest failure
 * until they are within `MAX_BATCH_RESOLUTION` of each other.
 * @public
 */
export const nextBatchToTry = (tries: readonly BatchTry[], start: number, cap: number): number | null => {
  if (tries.length === 0) return Math.min(start, cap);
  const lo = Math.max(0, ...tries.filter((t) => t.fits).map((t) => t.batch_size));
  const hi = Math.min(Number.POSITIVE_INFINITY, ...tries.filter((t) => !t.fits).map((t) => t.batch_size));
  if (hi === Number.POSITIVE_INFINITY) return lo >= cap ? null : Math.min(cap, lo * 2);
  if (lo === 0) return hi <= 1 ? null : Math.floor(hi / 2);
  if (hi - lo <= Math.max(1, Math.floor(lo * MAX_BATCH_RESOLUTION))) return null;
  return Math.floor((lo + hi) / 2);
};

/** Summarises finished tries. @public */
export const summarizeMaxBatch = (
  tries: readonly BatchTry[],
  memoryLimitBytes: number | null,
  definition: string,
): MaxBatchResult => {
  const fitting = tries.filter((t) => t.fits).sort((a, b) => b.batch_size - a.batch_size)[0];
  const failing = tries.filter((t) => !t.fits).sort((a, b) => a.batch_size - b.batch_size)[0];
  return {
    max_batch_size: fitting?.batch_size ?? 0,
    first_failing: failing?.batch_size ?? null,
    limited_by: failing ? 'memory' : 'cap',
    memory_bytes_at_max: fitting?.memory_bytes ?? null,
    memory_limit_bytes: memoryLimitBytes,
    failure_reason: failing?.reason ?? null,
    definition,
    tries,
  };
};
