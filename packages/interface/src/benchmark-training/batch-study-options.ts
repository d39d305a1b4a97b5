import {
  FIND_MAX_BATCH_CAP,
  checkBoundedNumber,
  err,
  ok,
  type Result,
  type SweepKind,
  type ValidationIssue,
} from '@maou/bench-domain';
import type { RawBenchmarkTrainingOptions } from './raw-options';

type List = string | readonly (string | number)[];
/** The run's flags; a study's list may also come as one comma-separated string (maou's form). */
type Raw = Omit<RawBenchmarkTrainingOptions, 'batchSizes' | 'learningRates'> & {
  readonly batchSizes?: List;
  readonly learningRates?: List;
};

/** A validated batch study; null from `toBatchStudy` when none of its flags was given. @public */
export interface ValidatedBatchStudy {
  readonly sweep: { readonly type: SweepKind; readonly values: readonly number[] } | null;
  readonly estimateCbs: boolean;
  readonly findMaxBatch: boolean;
  /** the search stops doubling here; absent = the use case's default */
  readonly maxBatchCap?: number;
}

const parseList = (
  flag: string,
  given: string | readonly (string | number)[],
  integer: boolean,
): { values: number[] } | { issue: ValidationIssue } => {
  const text = typeof given === 'string' ? given : given.join(',');
  const parts = text.split(',').map((x) => x.trim());
  const kind = integer ? 'positive integers' : 'positive numbers';
  if (parts.some((p) => p === ''))
    return { issue: { field: flag, message: `must be a comma-separated list of ${kind}, got '${text}'` } };
  const values = parts.map(Number);
  const bad = parts.find(
    (_, i) => !Number.isFinite(values[i]!) || values[i]! <= 0 || (integer && !Number.isInteger(values[i]!)),
  );
  if (bad !== undefined)
    return { issue: { field: flag, message: `'${bad}' is not one of the ${kind} the list must hold (got '${text}')` } };
  const twice = values.find((v, i) => values.indexOf(v) !== i);
  if (twice !== undefined) return { issue: { field: flag, message: `lists ${twice} twice` } };
  return { values };
};

/**
 * `--batch-sizes`, `--learning-rates`, `--estimate-cbs` and `--find-max-batch`, checked before anything runs: the two
 * sweeps exclude each other, the CBS estimate needs a batch-size sweep of at least two sizes.
 * @public
 */
export const toBatchStudy = (raw: Raw): Result<ValidatedBatchStudy | null, ValidationIssue[]> => {
  const issues: ValidationIssue[] = [];
  const list = (flag: string, given: Raw['batchSizes'], integer: boolean): number[] | null => {
    if (given === undefined) return null;
    const r = parseList(flag, given, integer);
    if ('issue' in r) {
      issues.push(r.issue);
      return null;
    }
    return r.values;
  };
  const sizes = list('--batch-sizes', raw.batchSizes, true);
  const rates = list('--learning-rates', raw.learningRates, false);
  if (raw.batchSizes !== undefined && raw.learningRates !== undefined) {
    issues.push({
      field: '--learning-rates',
      message: 'cannot be combined with --batch-sizes: a sweep varies one setting',
    });
  }
  if (raw.estimateCbs && raw.batchSizes === undefined) {
    issues.push({
      field: '--estimate-cbs',
      message: 'needs --batch-sizes: the critical batch size comes from throughput across batch sizes',
    });
  } else if (raw.estimateCbs && sizes !== null && sizes.length < 2) {
    issues.push({ field: '--estimate-cbs', message: `needs at least two --batch-sizes, got ${sizes.length}` });
  }
  const cap = raw.findMaxBatchCap;
  const capIssue =
    cap === undefined ? null : checkBoundedNumber(FIND_MAX_BATCH_CAP.flag, cap, FIND_MAX_BATCH_CAP.bounds);
  if (capIssue) issues.push(capIssue);
  else if (cap !== undefined && !raw.findMaxBatch)
    issues.push({ field: '--find-max-batch-cap', message: 'only applies with --find-max-batch' });
  const studied = raw.batchSizes !== undefined || raw.learningRates !== undefined || raw.findMaxBatch;
  if (studied && raw.enableProfiling)
    issues.push({
      field: '--enable-profiling',
      message: 'profiles one run; it cannot be combined with --batch-sizes, --learning-rates or --find-max-batch',
    });
  if (issues.length) return err(issues);
  if (!studied) return ok(null);
  const sweep = sizes
    ? { type: 'batch_size' as const, values: [...sizes].sort((a, b) => a - b) }
    : rates
      ? { type: 'learning_rate' as const, values: rates }
      : null;
  return ok({
    sweep,
    estimateCbs: raw.estimateCbs ?? false,
    findMaxBatch: raw.findMaxBatch ?? false,
    ...(cap === undefined ? {} : { maxBatchCap: cap }),
  });
};
