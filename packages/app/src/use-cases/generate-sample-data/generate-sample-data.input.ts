import type { Stage } from '@maou/bench-domain';

/** Checked request values (`toGenerateSampleDataInput`, interface). @public */
export interface ValidGenerateSampleDataInput {
  readonly stage: Stage;
  readonly positions: number;
  readonly outputDir: string;
  readonly seed: number;
  readonly rowsPerFile: number | null;
}
