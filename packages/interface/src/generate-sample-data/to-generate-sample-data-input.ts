import type { ValidGenerateSampleDataInput } from '@maou/bench-use-cases';
import {
  SEED,
  checkBoundedNumber,
  checkBoundedNumbers,
  err,
  ok,
  type Result,
  type ValidationIssue,
} from '@maou/bench-domain';
import { checkStage } from '../options/check-stage';
import type { GenerateSampleDataArgs } from './generate-sample-data.options';

/** Validates `generate-sample-data`'s flags, naming each bad one. @public */
export const toGenerateSampleDataInput = (
  i: GenerateSampleDataArgs,
): Result<ValidGenerateSampleDataInput, ValidationIssue[]> => {
  const stage = checkStage(i.stage);
  const issues: ValidationIssue[] = 'issue' in stage ? [stage.issue] : [];
  const positions = checkBoundedNumber('--positions', i.positions, { min: 1, max: 1e8, integer: true });
  if (positions) issues.push(positions);
  if (i.outputDir.trim() === '') issues.push({ field: '--output-dir', message: 'must name a directory' });
  issues.push(
    ...checkBoundedNumbers([
      // the run seed's range; this command's own default (0) is its table's
      [SEED.flag, i.seed, SEED.bounds],
      ['--rows-per-file', i.rowsPerFile, { min: 1, max: 1e7, integer: true }],
    ]),
  );
  if (issues.length || 'issue' in stage) return err(issues);
  return ok({
    stage: stage.stage,
    positions: i.positions,
    outputDir: i.outputDir,
    seed: i.seed,
    rowsPerFile: i.rowsPerFile ?? null,
  });
};
