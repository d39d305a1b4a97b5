import type { BenchmarkDataloaderInput } from '@maou/bench-use-cases';
import {
  BATCH_SIZE,
  CONSUMPTION_STEPS,
  LOADER_WORKERS,
  NOISE_MARGIN,
  NUM_BATCHES,
  PREFETCH_FACTOR,
  REPEATS,
  checkBoundedNumbers,
  err,
  ok,
  type NumberBounds,
  type Result,
  type ValidationIssue,
} from '@maou/bench-domain';
import { toBenchmarkConfig, type BenchmarkDefaults } from '../benchmark-training/to-benchmark-config';
import type { BenchmarkDataloaderArgs } from './benchmark-dataloader.options';

/** A validated grid and the notes about accepted-but-changed options. @public */
export interface ValidatedDataloaderGrid {
  readonly input: BenchmarkDataloaderInput;
  readonly warnings: readonly string[];
}

const eachBounded = (flag: string, v: readonly number[] | undefined, bounds: NumberBounds) =>
  (v ?? []).map((x) => [flag, x, bounds] as const);

/**
 * `benchmark-dataloader`'s flags: the loader, model and source flags as `benchmark-training` checks them (Stage 3),
 * then the grid. `cpuCores` (usable, after cgroup quota and affinity) bounds the default worker grid.
 * @public
 */
export const toBenchmarkDataloaderInput = (
  args: BenchmarkDataloaderArgs,
  defaults: BenchmarkDefaults,
  cpuCores: number,
): Result<ValidatedDataloaderGrid, ValidationIssue[]> => {
  const { batchSizes, ...shared } = args;
  const validated = toBenchmarkConfig({ ...shared, stage: 3 }, defaults);
  const issues: ValidationIssue[] = validated.ok ? [] : [...validated.error];
  issues.push(
    ...checkBoundedNumbers([
      [NUM_BATCHES.flag, args.numBatches, NUM_BATCHES.bounds],
      [REPEATS.flag, args.repeats, REPEATS.bounds],
      [NOISE_MARGIN.flag, args.noiseMargin, NOISE_MARGIN.bounds],
      [CONSUMPTION_STEPS.flag, args.consumptionSteps, CONSUMPTION_STEPS.bounds],
      ...eachBounded('--workers', args.workers, LOADER_WORKERS.bounds),
      ...eachBounded('--prefetch-factors', args.prefetchFactors, PREFETCH_FACTOR.bounds),
      ...eachBounded('--batch-sizes', batchSizes, BATCH_SIZE.bounds),
    ]),
  );
  if (!validated.ok || issues.length) return err(issues);
  const { config, warnings } = validated.value;
  return ok({
    warnings,
    input: {
      stage: 3,
      source: config.source,
      sampleRatio: config.sampleRatio,
      loader: config.loader,
      training: config.training,
      compute: config.compute,
      // The default grid stops at the usable cores (cgroup quota and affinity), not the host's.
      workers: args.workers ?? [0, 1, 2, 4, 8].filter((w) => w <= cpuCores),
      prefetchFactors: args.prefetchFactors,
      batchSizes: batchSizes ?? [config.loader.batchSize],
      repeats: args.repeats,
      numBatches: args.numBatches,
      warmupBatches: 5,
      noiseMargin: args.noiseMargin,
      consumptionSteps: args.consumptionSteps,
      enableResourceMonitoring: args.enableResourceMonitoring ?? false,
    },
  });
};
