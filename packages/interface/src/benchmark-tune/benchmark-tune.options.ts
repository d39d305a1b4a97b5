import {
  TUNE_ALLOWANCES,
  TUNE_BUDGET,
  checkBoundedNumbers,
  describeRange,
  err,
  ok,
  type Result,
  type TuneAllowance,
  type ValidationIssue,
} from '@maou/bench-domain';
import { optionGroup, type OptionTable, type RawOptions } from '../options/option-table';

const tune = optionGroup('Tune:');

/**
 * The flags `benchmark-tune` adds to every flag of `benchmark-training` (whose values are the baseline).
 * @public
 */
export const TUNE_OPTIONS = {
  'tune-budget': {
    ...tune.num(
      `seconds the whole tune aims to take, each leg's start-up included, ${describeRange(TUNE_BUDGET.bounds)} (default ${TUNE_BUDGET.default})`,
    ),
  },
  'tune-allow': {
    ...tune.str(
      `changes that alter what is trained, tried only when named here, e.g. batch-size,mixed-precision: ${TUNE_ALLOWANCES.join(', ')}`,
    ),
    array: true,
  },
} as const satisfies OptionTable;

/** What the tune's own flags ask for. @public */
export interface TuneRequest {
  readonly budgetMs: number;
  readonly allow: readonly TuneAllowance[];
}

/** `--tune-budget` within its range, `--tune-allow` names (comma-separated or separate) each a known one. @public */
export const toTuneRequest = (args: RawOptions<typeof TUNE_OPTIONS>): Result<TuneRequest, ValidationIssue[]> => {
  const names = (args.tuneAllow ?? [])
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean);
  const unknown = names.filter((n) => !(TUNE_ALLOWANCES as readonly string[]).includes(n));
  const issues = [
    ...checkBoundedNumbers([[TUNE_BUDGET.flag, args.tuneBudget, TUNE_BUDGET.bounds]]),
    ...unknown.map((n) => ({
      field: '--tune-allow',
      message: `unknown change ${JSON.stringify(n)}; known: ${TUNE_ALLOWANCES.join(', ')}`,
    })),
  ];
  if (issues.length) return err(issues);
  return ok({
    budgetMs: (args.tuneBudget ?? TUNE_BUDGET.default) * 1000,
    allow: [...new Set(names)] as TuneAllowance[],
  });
};
