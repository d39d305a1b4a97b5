// Other ways to project an epoch from the same batches, for `bench:epoch:replay --candidates`: each isolates one
// choice of the estimator (what the warm-up counts as, which steady batches the mean rests on) so that its share of
// the error can be measured on recorded epochs (ADR 0014).
import type { BatchTiming, RunAssessment } from '@maou/bench-domain';

const mean = (xs: readonly number[]): number => xs.reduce((s, x) => s + x, 0) / xs.length;

export const candidatePredictions = (
  run: readonly BatchTiming[],
  a: RunAssessment,
  batchesPerEpoch: number,
): Record<string, number> => {
  const wall = run.map((b) => b.wallMs);
  const k = wall.length;
  const rest = Math.max(0, batchesPerEpoch - k);
  const observed = wall.reduce((s, x) => s + x, 0);
  const steady = wall.slice(a.steadyStart);
  const sorted = [...steady].sort((x, y) => x - y);
  const trim = Math.floor(sorted.length * 0.1);
  return {
    'as shipped': a.predictedMs,
    'fall not in the point (before)': observed + a.meanMs * rest,
    'all steady, not the third': observed + mean(steady) * rest,
    'warm-up at the third': a.meanMs * batchesPerEpoch,
    'warm-up at all steady': mean(steady) * batchesPerEpoch,
    'latest half': observed + mean(steady.slice(Math.floor(steady.length / 2))) * rest,
    'trimmed 10 % each side': observed + mean(sorted.slice(trim, sorted.length - trim)) * rest,
  };
};
