import { checkBoundedNumber, checkBoundedNumbers, err, ok, type Result, type Stage, type ValidationIssue } from '@maou/bench-domain';

/** Raw flag values of `maou utility generate-sample-data`. @public */
export interface GenerateSampleDataInput {
  readonly stage: number;
  readonly positions: number;
  readonly outputDir: string;
  readonly seed?: number;
  readonly rowsPerFile?: number;
}

/** Checked request values. @public */
export interface ValidGenerateSampleDataInput {
  readonly stage: Stage;
  readonly positions: number;
  readonly outputDir: string;
  readonly seed: number;
  readonly rowsPerFile: number | null;
}

/** Validates the flags, naming each bad one. @public */
export const validateGenerateSampleDataInput = (i: GenerateSampleDataInput): Result<ValidGenerateSampleDataInput, ValidationIssue[]> => {
  const issues: ValidationIssue[] = [];
  if (i.stage !== 1 && i.stage !== 2 && i.stage !== 3) issues.push({ field: '--stage', message: `must be 1, 2 or 3, got ${i.stage}` });
  const positions = checkBoundedNumber('--positions', i.positions, { min: 1, max: 1e8, integer: true });
  if (positions) issues.push(positions);
  if (typeof i.outputDir !== 'string' || i.outputDir.trim() === '') issues.push({ field: '--output-dir', message: 'must name a directory' });
  issues.push(...checkBoundedNumbers([
    ['--seed', i.seed, { min: 0, max: 2 ** 32 - 1, integer: true }],
    ['--rows-per-file', i.rowsPerFile, { min: 1, max: 1e7, integer: true }],
  ]));
  if (issues.length) return err(issues);
  return ok({ stage: i.stage as Stage, positions: i.positions, outputDir: i.outputDir, seed: i.seed ?? 0, rowsPerFile: i.rowsPerFile ?? null });
};
