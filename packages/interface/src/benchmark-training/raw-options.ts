import type { ParsedOptions, RawOptions } from '../options/option-table';
import type { CALIBRATION_OPTIONS, benchmarkTrainingOptions } from './benchmark-training.options';

type TrainingTable = ReturnType<typeof benchmarkTrainingOptions>;

/**
 * Options as the command line hands them over, before any check, derived from the flag table. The batch study's lists
 * (`--batch-sizes 64,128 256`) are comma-separated (maou's form) and/or separate values.
 * @public
 */
export type RawBenchmarkTrainingOptions = RawOptions<TrainingTable>;

/** Every flag of `benchmark-training` as yargs hands it to the handler. @public */
export type BenchmarkTrainingArgs = ParsedOptions<TrainingTable & typeof CALIBRATION_OPTIONS>;
