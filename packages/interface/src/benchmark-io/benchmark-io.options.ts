import { flag, num, str, type ParsedOptions, type OptionTable } from '../options/option-table';

/** Flags of `maou utility benchmark-io`. @public */
export const BENCHMARK_IO_OPTIONS = {
  stage: { ...num('record schema: 1, 2 or 3'), default: 3 },
  rows: { ...num('rows (distinct positions from random games)'), default: 10000 },
  repeats: { ...num('write/read repeats per format; medians are reported'), default: 3 },
  seed: { ...num('seed of the sample rows'), default: 0 },
  formats: { ...str('only these, as name:compression (e.g. feather:lz4 npy:none)'), array: true },
  'output-json': str('write the results as JSON to this path'),
  json: flag('print JSON instead of the table'),
} as const satisfies OptionTable;

/** `benchmark-io`'s flags as yargs hands them over. @public */
export type BenchmarkIoArgs = ParsedOptions<typeof BENCHMARK_IO_OPTIONS>;
