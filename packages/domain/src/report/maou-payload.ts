/**
 * maou's `benchmark-training` payload, key for key (maou 2026-02 plus the keys it added by 2026-08): seconds, not
 * milliseconds; `data_load_method` a string inside each metrics block; counts as integers.
 */

/** One of maou's timing categories, in seconds. @public */
export interface MaouDistribution {
  readonly mean: number;
  readonly std: number;
  readonly min: number;
  readonly max: number;
  readonly p50: number;
  readonly p95: number;
  readonly p99: number;
}

/** maou's `timing_distribution` categories. @public */
export const MAOU_TIMING_CATEGORIES = [
  'data_loading',
  'gpu_transfer',
  'forward_pass',
  'loss_computation',
  'backward_pass',
  'optimizer_step',
  'total_batch',
] as const;

/** maou's `BenchmarkResult.to_dict()`; the `resource_*` keys only when monitoring was on and the figure exists. @public */
export interface MaouMetrics {
  readonly total_epoch_time: number;
  readonly average_batch_time: number;
  readonly actual_average_batch_time: number;
  readonly total_batches: number;
  readonly warmup_time: number;
  readonly warmup_batches: number;
  readonly measured_time: number;
  readonly measured_batches: number;
  readonly data_loading_time: number;
  readonly gpu_transfer_time: number;
  readonly forward_pass_time: number;
  readonly loss_computation_time: number;
  readonly backward_pass_time: number;
  readonly optimizer_step_time: number;
  readonly unaccounted_time: number;
  /** maou's loss: the batch's loss ÷ the accumulation steps of its cycle (what maou back-propagates) */
  readonly final_loss: number;
  /** over every batch, warm-up included, each ÷ its cycle's accumulation steps as maou records it */
  readonly average_loss: number;
  readonly samples_per_second: number;
  readonly batches_per_second: number;
  readonly data_load_method: 'streaming' | 'map-style';
  readonly resource_cpu_max_percent?: number;
  readonly resource_memory_max_bytes?: number;
  readonly resource_memory_max_percent?: number;
  readonly resource_gpu_max_percent?: number;
  readonly resource_gpu_avg_percent?: number;
  readonly resource_gpu_memory_max_bytes?: number;
  readonly resource_gpu_memory_total_bytes?: number;
  /** peak used ÷ total, as maou computes it from its peak bytes */
  readonly resource_gpu_memory_max_percent?: number;
  /** training only */
  readonly timing_distribution?: Readonly<Record<(typeof MAOU_TIMING_CATEGORIES)[number], MaouDistribution>>;
  /** training only */
  readonly model_info?: {
    readonly total_parameters: number;
    readonly trainable_parameters: number;
    readonly model_memory_bytes: number;
  };
}

/** maou's `estimation` block: empty without `--sample-ratio`. @public */
export type MaouEstimation =
  | Record<string, never>
  | {
      readonly sample_ratio: number;
      readonly estimated_full_epoch_time_seconds: number;
      readonly estimated_full_epoch_time_minutes: number;
      readonly estimated_total_batches: number;
      readonly actual_batches_processed: number;
    };

/** maou's `configuration` block, with effective (not requested) loader values. @public */
export interface MaouConfiguration {
  readonly device: string;
  readonly batch_size: number;
  readonly dataloader_workers: number;
  readonly pin_memory: boolean;
  readonly prefetch_factor: number;
  readonly warmup_batches: number;
  readonly max_batches: number | null;
  readonly enable_profiling: boolean;
  readonly sample_ratio: number | null;
  readonly stage: number;
  readonly model_architecture: string;
  readonly streaming: boolean;
  readonly data_load_method: 'streaming' | 'map-style';
  readonly optimizer: string;
  readonly learning_rate: number;
  readonly momentum: number;
  readonly policy_loss_ratio: number;
  readonly value_loss_ratio: number;
  readonly compilation: boolean;
  readonly freeze_backbone: boolean;
  readonly trainable_layers: number | null;
}

/** The whole payload as maou's `benchmark-training` returns it. @public */
export interface MaouTrainingPayload {
  readonly benchmark_results: {
    readonly Summary: string;
    readonly Recommendations: string;
    /** only when validation ran */
    readonly ValidationSummary?: string;
    /** only when --run-validation was given and validation did not run: why */
    readonly validation_skipped?: string;
  };
  readonly training_metrics: MaouMetrics;
  /** only when validation ran */
  readonly validation_metrics?: MaouMetrics;
  readonly estimation: MaouEstimation;
  readonly configuration: MaouConfiguration;
}
