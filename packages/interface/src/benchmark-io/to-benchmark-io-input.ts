import type { ValidBenchmarkIoInput } from '@maou/bench-use-cases';
import { SEED, checkBoundedNumbers, err, ok, type Result, type ValidationIssue } from '@maou/bench-domain';
import type { BenchmarkIoArgs } from './benchmark-io.options';
import { checkStage } from '../options/check-stage';

/** Validates `benchmark-io`'s flags, naming each bad one. @public */
export const toBenchmarkIoInput = (i: BenchmarkIoArgs): Result<ValidBenchmarkIoInput, ValidationIssue[]> => {
  const stage = checkStage(i.stage);
  // Rows are held in memory several times over (records, encoded files): ten million is already gigabytes.
  const issues = [
    ...('issue' in stage ? [stage.issue] : []),
    ...checkBoundedNumbers([
      ['--rows', i.rows, { min: 1, max: 1e7, integer: true }],
      ['--repeats', i.repeats, { min: 1, max: 100, integer: true }],
      // the run seed's range; this command's own default (0) is its table's
      [SEED.flag, i.seed, SEED.bounds],
    ]),
  ];
  if (issues.length || 'issue' in stage) return err(issues);
  return ok({
    stage: stage.stage,
    rows: i.rows,
    repeats: i.repeats,
    seed: i.seed,
    formats: i.formats && i.formats.length ? i.formats : null,
  });
};
