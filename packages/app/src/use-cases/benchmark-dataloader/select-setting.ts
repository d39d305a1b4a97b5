import type { GridPoint, Recommendation } from './benchmark-dataloader.input';

const cost = (p: GridPoint): number => p.workers * 100 + (p.prefetchFactor ?? 0);
const flagsOf = (p: GridPoint, pinMemory: boolean): string[] => [
  `--batch-size ${p.batchSize}`, `--dataloader-workers ${p.workers}`,
  ...(p.prefetchFactor !== null ? [`--prefetch-factor ${p.prefetchFactor}`] : []), ...(pinMemory ? ['--pin-memory'] : []),
];

/**
 * The cheapest point (fewest workers, then smallest prefetch) whose slowest repeat beats the model's rate plus the
 * margin. When none does, the loader is the bottleneck and the fastest point is taken. Without a model rate, the
 * cheapest point within the margin of the fastest median.
 * @public
 */
export const selectSetting = (points: readonly GridPoint[], model: number | null, margin: number, pinMemory: boolean): Recommendation => {
  const byCost = [...points].sort((a, b) => cost(a) - cost(b));
  const fastest = [...points].sort((a, b) => b.samplesPerSecond.median - a.samplesPerSecond.median)[0]!;
  let pick: GridPoint;
  let basis: Recommendation['basis'];
  if (model === null) {
    pick = byCost.find((p) => p.samplesPerSecond.median >= fastest.samplesPerSecond.median * (1 - margin))!;
    basis = 'no-model';
  } else {
    const fed = byCost.find((p) => p.samplesPerSecond.min >= model * (1 + margin));
    pick = fed ?? fastest;
    basis = fed ? 'fed' : 'loader-bound';
  }
  return {
    batchSize: pick.batchSize, workers: pick.workers, prefetchFactor: pick.prefetchFactor,
    loaderSamplesPerSecond: pick.samplesPerSecond.median, modelSamplesPerSecond: model, basis, flags: flagsOf(pick, pinMemory),
  };
};

/** Across batch sizes: the one whose chosen setting trains fastest (the slower of loader and model). @public */
export const bestAcrossBatchSizes = (recs: readonly Recommendation[]): Recommendation =>
  [...recs].sort((a, b) => effective(b) - effective(a))[0]!;
const effective = (r: Recommendation): number => Math.min(r.loaderSamplesPerSecond, r.modelSamplesPerSecond ?? Infinity);
