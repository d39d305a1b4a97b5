import { STAGE, type GivenSettings } from '@maou/bench-domain';
import type { RawBenchmarkTrainingOptions } from './raw-options';

/** The flags the resource plan decides from (each optional: a command without one leaves it to the plan). @public */
export type ResourceFlags = Partial<
  Pick<
    RawBenchmarkTrainingOptions,
    'threads' | 'dataloaderWorkers' | 'batchSize' | 'stage' | 'stage1BatchSize' | 'stage2BatchSize'
  >
>;

/**
 * The settings the user gave, as the domain's `planResources` takes them: the one place that reads `--threads`,
 * `--dataloader-workers`, `--batch-size` and `--stageN-batch-size` for their value (validation checks their ranges).
 * @public
 */
export const givenSettings = (flags: ResourceFlags): GivenSettings => ({
  threads: flags.threads,
  workers: flags.dataloaderWorkers,
  batchSize: flags.batchSize,
  stage: flags.stage ?? STAGE.default,
  stage1BatchSize: flags.stage1BatchSize,
  stage2BatchSize: flags.stage2BatchSize,
});
