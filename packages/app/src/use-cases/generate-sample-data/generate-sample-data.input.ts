import { err, ok, type Result, type Stage, type ValidationIssue } from '@maou/bench-domain';

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

const positiveInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v > 0;

/** Validates the flags, naming each bad one. @public */
export const validateGenerateSampleDataInput = (i: GenerateSampleDataInput): Result<ValidGenerateSampleDataInput, ValidationIssue[]> => {
  const issues: ValidationIssue[] = [];
  if (i.stage !== 1 && i.stage !== 2 && i.stage !== 3) issues.push({ field: '--stage', message: `must be 1, 2 or 3, got ${i.stage}` });
  if (!positiveInt(i.positions)) issues.push({ field: '--positions', message: `must be a positive integer, got ${i.positions}` });
  if (typeof i.outputDir !== 'string' || i.outputDir.trim() === '') issues.push({ field: '--output-dir', message: 'must name a directory' });
  if (i.seed !== undefined && !(Number.isInteger(i.seed) && i.seed >= 0 && i.seed < 2 ** 32)) issues.push({ field: '--seed', message: `must be an integer in [0, 2^32), got ${i.seed}` });
  if (i.rowsPerFile !== undefined && !positiveInt(i.rowsPerFile)) issues.push({ field: '--rows-per-file', message: `must be a positive integer, got ${i.rowsPerFile}` });
  if (issues.length) return err(issues);
  return ok({ stage: i.stage as Stage, positions: i.positions, outputDir: i.outputDir, seed: i.seed ?? 0, rowsPerFile: i.rowsPerFile ?? null });
};
