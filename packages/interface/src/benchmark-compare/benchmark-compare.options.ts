import { flag, num, str, type ParsedOptions, type OptionTable } from '../options/option-table';

/** The two reports `benchmark-compare` reads, as positionals. @public */
export const BENCHMARK_COMPARE_POSITIONALS = {
  a: { ...str('baseline report (--output-json of benchmark-training)'), demandOption: true },
  b: { ...str('candidate report'), demandOption: true },
} as const satisfies OptionTable;

/** Flags of `maou utility benchmark-compare`. @public */
export const BENCHMARK_COMPARE_OPTIONS = {
  alpha: { ...num('significance level of the test'), default: 0.05 },
  'output-json': str('write the comparison as JSON'),
  json: flag('print the JSON on stdout'),
  'report-html': str('write a self-contained HTML report'),
} as const satisfies OptionTable;

/** `benchmark-compare`'s positionals and flags as yargs hands them over. @public */
export type BenchmarkCompareArgs = ParsedOptions<
  typeof BENCHMARK_COMPARE_POSITIONALS & typeof BENCHMARK_COMPARE_OPTIONS
>;
