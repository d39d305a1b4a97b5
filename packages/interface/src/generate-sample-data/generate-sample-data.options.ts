import { num, str, type ParsedOptions, type OptionTable } from '../options/option-table';

/** Flags of `maou utility generate-sample-data`. @public */
export const GENERATE_SAMPLE_DATA_OPTIONS = {
  stage: { ...num('1 reachable squares, 2 legal moves, 3 policy + value'), demandOption: true },
  positions: {
    ...num('distinct positions (rows) to generate; Stage 1 repeats its 1,105 patterns'),
    demandOption: true,
  },
  'output-dir': { ...str('directory for the .feather files'), demandOption: true },
  // The table owns the default: yargs shows it in --help and fills it in (a run's --seed, SEED, defaults to 1).
  seed: { ...num('seed of the random games'), default: 0 },
  'rows-per-file': num('rows per file (default maou: 1,000,000 Stage 3, 100,000 Stage 2)'),
} as const satisfies OptionTable;

/** `generate-sample-data`'s flags as yargs hands them over. @public */
export type GenerateSampleDataArgs = ParsedOptions<typeof GENERATE_SAMPLE_DATA_OPTIONS>;
