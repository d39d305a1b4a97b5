import type { BatchTiming, BenchmarkConfig } from '@maou/bench-domain';

/** A validated configuration plus hooks for live progress. @public */
export interface BenchmarkTrainingInput {
  readonly config: BenchmarkConfig;
  /** notes from validation, carried into the report */
  readonly warnings?: readonly string[];
  readonly onBatch?: (timing: BatchTiming, planned: number) => void;
}
