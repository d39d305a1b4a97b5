import { checkBoundedNumbers, err, ok, type Result, type Stage, type ValidationIssue } from '@maou/bench-domain';

/** Raw flags of `maou utility benchmark-io`. @public */
export interface BenchmarkIoInput {
  readonly stage: number;
  readonly rows: number;
  readonly repeats: number;
  readonly seed: number;
  readonly formats?: readonly string[];
}

/** @public */
export interface ValidBenchmarkIoInput {
  readonly stage: Stage;
  readonly rows: number;
  readonly repeats: number;
  readonly seed: number;
  readonly formats: readonly string[] | null;
}

/** Validates the flags, naming each bad one. @public */
export const validateBenchmarkIoInput = (i: BenchmarkIoInput): Result<ValidBenchmarkIoInput, ValidationIssue[]> => {
  const issues: ValidationIssue[] = [];
  if (i.stage !== 1 && i.stage !== 2 && i.stage !== 3) issues.push({ field: '--stage', message: `must be 1, 2 or 3, got ${i.stage}` });
  // Rows are held in memory several times over (records, encoded files): ten million is already gigabytes.
  issues.push(...checkBoundedNumbers([
    ['--rows', i.rows, { min: 1, max: 1e7, integer: true }],
    ['--repeats', i.repeats, { min: 1, max: 100, integer: true }],
    ['--seed', i.seed, { min: 0, max: 2 ** 32 - 1, integer: true }],
  ]));
  if (issues.length) return err(issues);
  return ok({ stage: i.stage as Stage, rows: i.rows, repeats: i.repeats, seed: i.seed, formats: i.formats && i.formats.length ? i.formats : null });
};
