import type { BatchTiming, BenchmarkConfig } from '@maou/bench-domain';
import type { CalibrateLoaderInput, CalibrationMode } from '../calibrate-loader/calibrate-loader.input';

/** A validated configuration plus hooks for live progress. @public */
export interface BenchmarkTrainingInput {
  readonly config: BenchmarkConfig;
  /** notes from validation, carried into the report */
  readonly warnings?: readonly string[];
  readonly onBatch?: (timing: BatchTiming, planned: number) => void;
  /** loader calibration before the run; off when absent */
  readonly calibration?: {
    readonly mode: CalibrationMode;
    readonly budgetMs?: number;
    /** settings the user gave explicitly, kept as they are */
    readonly fixed?: CalibrateLoaderInput['fixed'];
  };
}
