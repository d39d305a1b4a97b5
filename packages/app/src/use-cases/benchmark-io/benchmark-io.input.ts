import { err, ok, type Result, type Stage, type ValidationIssue } from '@maou/bench-domain';

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
  if (!Number.isInteger(i.rows) || i.rows < 1) issues.push({ field: '--rows', message: `must be a positive integer, got ${i.rows}` });
  if (!Number.isInteger(i.repeats) || i.repeats < 1) issues.push({ field: '--repeats', message: `must be a positive integer, got ${i.repeats}` });
  if (!Number.isInteger(i.seed) || i.seed < 0) issues.push({ field: '--seed', message: `must be a non-negative integer, got ${i.seed}` });
  if (issues.length) return err(issues);
  return ok({ stage: i.stage as Stage, rows: i.rows, repeats: i.repeats, seed: i.seed, formats: i.formats && i.formats.length ? i.formats : null });
};
