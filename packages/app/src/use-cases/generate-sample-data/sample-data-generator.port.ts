import type { Stage } from '@maou/bench-domain';

/** One shard the generator wrote. @public */
export interface GeneratedShard {
  readonly path: string;
  readonly rows: number;
  readonly bytes: number;
}

/** What to generate. @public */
export interface SampleDataRequest {
  readonly stage: Stage;
  readonly positions: number;
  readonly seed: number;
  readonly outputDir: string;
  readonly rowsPerFile: number | null;
}

/** Plays random legal games and writes maou-format records. @public */
export interface SampleDataGeneratorPort {
  generate(
    request: SampleDataRequest,
    onProgress: (done: number, total: number, phase: string) => void,
  ): Promise<readonly GeneratedShard[]>;
}
