import type { GridPoint, Recommendation } from './benchmark-dataloader.input';

/**
 * Worker threads load in parallel with the step, so a loader only has to outrun the model by the margin. In the main
 * thread (0 workers) loading adds to every step, so it must be fast enough that the added share stays within the
 * margin: rate ≥ model / margin.
 * @public
 */
export const feedsModel = (slowestRun: number, workers: number, model: number, margin: number): boolean =>
  slowestRun >= (workers === 0 ? model / Math.max(margin, 1e-9) : model * (1 + margin));

const cost = (p: GridPoint): number => p.workers * 100 + (p.prefetchFactor ?? 0);
const flagsOf = (p: GridPoint, pinMemory: boolean): string[] => [
  `--batch-size ${p.batchSize}`,
  `--dataloader-workers ${p.workers}`,
  ...(p.prefetchFactor !== null ? [`--prefetch-factor ${p.prefetchFactor}`] : []),
  ...(pinMemory ? ['--pin-memory'] : []),
];

/**
 * The cheapest point (fewest workers, then smallest prefetch) whose slowest repeat keeps the model fed
 * (`feedsModel`). When none does, the loader is the bottleneck and the fastest point is taken. Without a model rate, the
 * cheapest point within the margin of the fastest median.
 * @public
 */
export const selectSetting = (
  points: readonly GridPoint[],
  model: number | null,
  margin: number,
  pinMemory: boolean,
): Recommendation => {
  const byCost = [...points].sort((a, b) => cost(a) - cost(b));
  const fastest = [...points].sort((a, b) => b.samplesPerSecond.median - a.samplesPerSecond.median)[0]!;
  let pick: GridPoint;
  let basis: Recommendation['basis'];
  if (model === null) {
    pick = byCost.find((p) => p.samplesPerSecond.median >= fastest.samplesPerSecond.median * (1 - margin))!;
    basis = 'no-model';
  } else {
    const fed = byCost.find((p) => feedsModel(p.samplesPerSecond.min, p.workers, model, margin));
    pick = fed ?? fastest;
    basis = fed ? 'fed' : 'loader-bound';
  }
  return {
    batchSize: pick.batchSize,
    workers: pick.workers,
    prefetchFactor: pick.prefetchFactor,
    loaderSamplesPerSecond: pick.samplesPerSecond.median,
    modelSamplesPerSecond: model,
    basis,
    flags: flagsOf(pick, pinMemory),
  };
};

/** Across batch sizes: the one whose chosen setting trains fastest (the slower of loader and model). @public */
export const bestAcrossBatchSizes = (recs: readonly Recommendation[]): Recommendation =>
  [...recs].sort((a, b) => effective(b) - effective(a))[0]!;
const effective = (r: Recommendation): number =>
  Math.min(r.loaderSamplesPerSecond, r.modelSamplesPerSecond ?? Infinity);
