import { err, ok, type Result, type ValidationIssue } from '@maou/bench-domain';
import type { BenchmarkCompareArgs } from './benchmark-compare.options';

/** Which reports to compare, at which significance level. @public */
export interface ValidCompareRequest {
  readonly a: string;
  readonly b: string;
  readonly alpha: number;
}

/** `--alpha` must leave room for a two-sided test. @public */
export const toCompareRequest = (args: BenchmarkCompareArgs): Result<ValidCompareRequest, ValidationIssue[]> =>
  args.alpha > 0 && args.alpha < 0.5
    ? ok({ a: args.a, b: args.b, alpha: args.alpha })
    : err([{ field: '--alpha', message: `must be in (0, 0.5), got ${args.alpha}` }]);
