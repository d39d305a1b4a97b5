import type { BatchTiming, BenchmarkConfig, ResourceLimitsReport } from '@maou/bench-domain';
import type { CalibrateLoaderInput, CalibrationMode } from '../calibrate-loader/calibrate-loader.input';

/** Asks a run to stop early (an `AbortSignal` fits); `reason` names why, such as the signal's name. @public */
export interface StopRequest {
  readonly aborted: boolean;
  readonly reason?: unknown;
  /** told once every training batch ran: the report will be complete, and a stop request no longer shortens it */
  lastBatchDone?(): void;
}

/** A validated configuration plus hooks for live progress. @public */
export interface BenchmarkTrainingInput {
  readonly config: BenchmarkConfig;
  /** notes from validation, carried into the report */
  readonly warnings?: readonly string[];
  /** resource limits detected for this run and the settings they decided; shown in the report */
  readonly resourceLimits?: ResourceLimitsReport;
  readonly onBatch?: (timing: BatchTiming, planned: number) => void;
  /** checked between batches: once aborted, the run stops and reports the batches completed, marked interrupted */
  readonly stop?: StopRequest;
  /** loader calibration before the run; off when absent */
  readonly calibration?: {
    readonly mode: CalibrationMode;
    readonly budgetMs?: number;
    /** settings the user gave explicitly, kept as they are */
    readonly fixed?: CalibrateLoaderInput['fixed'];
  };
}
