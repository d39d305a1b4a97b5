import type { CalibrateLoaderInput } from './calibrate-loader.input';

/** One loader setting to try. @internal */
export interface Candidate {
  readonly workers: number;
  readonly prefetchFactor: number;
  readonly batchSize: number;
}

/**
 * Workers 0, 1, 2, 4, … up to the resource bound; prefetch 2 for each worker count, plus 4 for the largest
 * (prefetch only matters once workers exist). The batch is the run's (the resource plan decided it). Cheapest first.
 * @internal
 */
export const calibrationCandidates = (input: CalibrateLoaderInput): Candidate[] => {
  const fixed = input.fixed ?? {};
  const batchSize = input.base.batchSize;
  const workers = [0];
  for (let w = 1; w <= input.limits.maxWorkers; w *= 2) workers.push(w);
  let out: Candidate[] = workers.map((w) => ({
    workers: w,
    prefetchFactor: w === 0 ? input.base.prefetchFactor : 2,
    batchSize,
  }));
  const top = workers.at(-1)!;
  if (top > 0) out.push({ workers: top, prefetchFactor: 4, batchSize });
  // An explicit user setting always wins: only the settings the user left open are searched.
  if (fixed.workers !== undefined) out = uniq(out.map((c) => ({ ...c, workers: fixed.workers! })));
  if (fixed.prefetchFactor !== undefined) out = uniq(out.map((c) => ({ ...c, prefetchFactor: fixed.prefetchFactor! })));
  return out;
};

const uniq = (cs: readonly Candidate[]): Candidate[] =>
  cs.filter((c, i) => cs.findIndex((d) => d.workers === c.workers && d.prefetchFactor === c.prefetchFactor) === i);
