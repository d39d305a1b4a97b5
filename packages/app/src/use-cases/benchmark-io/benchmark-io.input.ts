import type { Stage } from '@maou/bench-domain';

/** What `benchmark-io` measures, checked by `toBenchmarkIoInput` (interface). @public */
export interface ValidBenchmarkIoInput {
  readonly stage: Stage;
  readonly rows: number;
  readonly repeats: number;
  readonly seed: number;
  readonly formats: readonly string[] | null;
}
