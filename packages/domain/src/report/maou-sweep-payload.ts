import type { AdaptiveBatchRecommendation } from '../adaptive-batch/adaptive-batch-recommendation';
import type { StrategyRecommendation } from '../adaptive-batch/strategy-recommendation';
import type { MaouTrainingPayload } from './maou-payload';

/** A row of maou's batch-size comparison (`peak_gpu_memory_mb` needs CUDA's allocator peak: never here). @public */
export interface MaouBatchSizeRow {
  readonly batch_size: number;
  readonly samples_per_second: number;
  /** maou's `actual_average_batch_time` */
  readonly avg_batch_time: number;
  readonly data_loading_time: number;
  readonly forward_pass_time: number;
  readonly backward_pass_time: number;
  readonly average_loss: number;
}

/** A row of maou's learning-rate comparison. @public */
export interface MaouLearningRateRow {
  readonly learning_rate: number;
  readonly average_loss: number;
  readonly final_loss: number;
  readonly samples_per_second: number;
}

/**
 * One point of `detailed_results`: the point's single-run payload with the swept value; a point that ran out of memory
 * as `oom: true`. maou has no entry for a point that failed another way (its sweep stops there); this one goes on and
 * keeps the point as `oom: false` with the reason in `error`.
 * @public
 */
export type MaouSweepResult =
  | (MaouTrainingPayload & { readonly sweep_batch_size?: number; readonly sweep_learning_rate?: number })
  | {
      readonly sweep_batch_size?: number;
      readonly sweep_learning_rate?: number;
      readonly oom: boolean;
      readonly error?: string;
    };

/** maou's `cbs_estimation`: the study's critical batch in maou's keys. @public */
export interface MaouCbsEstimation {
  readonly estimated_cbs: number;
  readonly cbs_exceeds_tested: boolean;
  readonly gradient_noise_scale: number | null;
  readonly recommendation: string;
  readonly scaling_efficiency: Readonly<Record<string, number>>;
  readonly adaptive_batch_recommendation?: AdaptiveBatchRecommendation;
  readonly strategy_recommendation?: StrategyRecommendation;
}

/** What both of maou's sweep payloads hold. @public */
export interface MaouSweepCommon<Type extends string, Row> {
  readonly sweep_type: Type;
  readonly comparison: readonly Row[];
  readonly summary: string;
  readonly detailed_results: readonly MaouSweepResult[];
}

/** maou's payload of `--batch-sizes` (with `oom_batch_sizes`, and `cbs_estimation` with `--estimate-cbs`). @public */
export interface MaouBatchSizeSweep extends MaouSweepCommon<'batch_size', MaouBatchSizeRow> {
  readonly oom_batch_sizes: readonly number[];
  readonly cbs_estimation?: MaouCbsEstimation;
}

/** maou's payload of `--learning-rates`. @public */
export type MaouLearningRateSweep = MaouSweepCommon<'learning_rate', MaouLearningRateRow>;

/** @public */
export type MaouSweepPayload = MaouBatchSizeSweep | MaouLearningRateSweep;

/** maou sweep keys this tool leaves out, and why. @public */
export const MAOU_SWEEP_OMITTED: Readonly<Record<string, string>> = {
  gpu_batch_size_recommendation:
    "a fit of CUDA's peak allocated bytes against the batch size; tfjs backends expose no allocator peak (--find-max-batch searches the largest batch that fits instead)",
  'comparison[].peak_gpu_memory_mb': "CUDA's peak allocated bytes, which tfjs backends do not expose",
};
