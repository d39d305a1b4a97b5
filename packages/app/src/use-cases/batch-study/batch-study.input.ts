import type { BatchTiming, BenchmarkConfig, ResourceLimitsReport, SweepKind } from '@maou/bench-domain';
import type { StopRequest } from '../benchmark-training/benchmark-training.input';

/** A validated batch study: a sweep, the CBS estimate, the max-batch search, or several of them. @public */
export interface BatchStudyInput {
  readonly config: BenchmarkConfig;
  readonly warnings?: readonly string[];
  /** resource limits the caller detected; each sweep point's report shows them, as a single run's does */
  readonly resourceLimits?: ResourceLimitsReport;
  /** each value is one full measured run, with `config` otherwise unchanged */
  readonly sweep: { readonly type: SweepKind; readonly values: readonly number[] } | null;
  /** CBS from the batch-size sweep, and the gradient noise scale measured from gradient norms */
  readonly estimateCbs: boolean;
  readonly findMaxBatch: boolean;
  /** the max-batch search stops doubling here (default `MAX_BATCH_CAP`) */
  readonly maxBatchCap?: number;
  /** live progress: which part of the study runs (`timed`: a sweep point, whose batches follow through `onBatch`) */
  readonly onStage?: (label: string, timed: boolean) => void;
  readonly onBatch?: (timing: BatchTiming, planned: number) => void;
  /** checked before each stage and between a point's batches: once aborted, the point running stops after its batch
   * (reported failed, `interrupted`), no further stage runs, and the report says so (`interruption`) */
  readonly stop?: StopRequest;
}
