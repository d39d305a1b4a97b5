import type { BenchmarkConfig, ResourceLimitsReport, TuneAllowance, TuneBackend, TuneChange } from '@maou/bench-domain';
import type { StopRequest } from '../benchmark-training/benchmark-training.input';

/** A validated `benchmark-tune`: the user's configuration is the baseline every candidate is measured against. @public */
export interface BenchmarkTuneInput {
  readonly config: BenchmarkConfig;
  readonly warnings?: readonly string[];
  readonly resourceLimits?: ResourceLimitsReport;
  /** changes that alter the training, allowed by name */
  readonly allow: readonly TuneAllowance[];
  /** wall time the whole tune aims to take, start-up of each leg included */
  readonly budgetMs: number;
  /** the registered backends a candidate may switch to */
  readonly backends: readonly TuneBackend[];
  /** the command line that reproduces the baseline with these changes (the caller knows how it was given) */
  readonly commandLine: (changes: readonly TuneChange[]) => string;
  /** checked between legs and inside each: once aborted, the tune stops and fails as interrupted */
  readonly stop?: StopRequest;
}
