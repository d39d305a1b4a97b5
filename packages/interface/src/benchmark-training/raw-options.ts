import type { ParsedOptions, RawOptions } from '../options/option-table';
import type { BENCHMARK_TRAINING_OPTIONS, CALIBRATION_OPTIONS } from './benchmark-training.options';

/**
 * Options as the command line hands them over, before any check, derived from the flag table. The batch study's lists
 * (`--batch-sizes 64,128 256`) are comma-separated (maou's form) and/or separate values.
 * @public
 */
export type RawBenchmarkTrainingOptions = RawOptions<typeof BENCHMARK_TRAINING_OPTIONS>;

/** Every flag of `benchmark-training` as yargs hands it to the handler. @public */
export type BenchmarkTrainingArgs = ParsedOptions<typeof BENCHMARK_TRAINING_OPTIONS & typeof CALIBRATION_OPTIONS>;
