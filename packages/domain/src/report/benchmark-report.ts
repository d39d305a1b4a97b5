import type { SeriesSummary } from '../stats/summary';
import type { RateCi95 } from '../stats/rate-interval';
import type { BatchTiming, Phase } from '../timing/phases';
import type { MaouTrainingPayload } from './maou-payload';
import type { ContentionSummary } from '../timing/contention';
import type { BatchTrend } from '../estimate/batch-trend';
import type { AdaptiveBatchReport } from '../adaptive-batch/adaptive-batch-report';
import type { StopReason } from '../estimate/run-assessment';
import type { KnobCostReport } from './knob-cost';

/**
 * Payload version; bump on any breaking change of the JSON shape. 2 added `maou` (maou's own payload keys),
 * `maou_omitted`, `null_reasons`, `resource_limits` and the validation pass's phase breakdown.
 * @public
 */
export const REPORT_SCHEMA_VERSION = 2;

/** Versions `benchmark-compare` reads: the fields it uses are the same in both. @public */
export const READABLE_REPORT_SCHEMA_VERSIONS: readonly number[] = [1, 2];

/** Steady-state training figures; warm-up batches are never counted here. @public */
export interface TrainingMetrics {
  readonly total_batches: number;
  readonly warmup_batches: number;
  /** first batch index counted as steady state (detected, at least warmup_batches) */
  readonly steady_state_start: number;
  readonly measured_batches: number;
  readonly measured_samples: number;
  readonly batch_size: number;
  readonly samples_per_second: number;
  /** from the batch-time interval; the high end null where that interval reaches 0 ms */
  readonly samples_per_second_ci95: RateCi95;
  /** why `samples_per_second_ci95` has no high end; null when it has one */
  readonly samples_per_second_ci95_note: string | null;
  readonly batch_ms: SeriesSummary;
  readonly batch_ms_including_warmup_mean: number;
  /** |mean of the second half − mean of the first half| of the measured batches: drift the CI of the mean cannot see */
  readonly batch_ms_drift: number;
  readonly warmup_total_ms: number;
  readonly phase_ms: Readonly<Record<Phase, SeriesSummary>>;
  /** share of steady-state wall time per phase, summing to 1 */
  readonly phase_share: Readonly<Record<Phase, number>>;
  readonly initial_loss: number;
  readonly final_loss: number;
  readonly tensors_per_batch: { readonly first: number; readonly last: number; readonly leaked_per_batch: number };
}

/** Inference-only pass over validation batches, split into the same phases as training (no backward, no optimiser). @public */
export interface ValidationMetrics {
  readonly batches: number;
  readonly samples: number;
  readonly samples_per_second: number;
  readonly batch_ms: SeriesSummary;
  readonly phase_ms: Readonly<Record<Phase, SeriesSummary>>;
  /** share of the pass's wall time per phase, summing to 1 */
  readonly phase_share: Readonly<Record<Phase, number>>;
  /** sample-weighted mean loss over the pass */
  readonly loss: number;
  /** the batches' losses averaged with each batch once, as maou averages them (differs with a short last batch) */
  readonly batch_mean_loss: number;
  readonly final_loss: number;
  readonly metrics: Readonly<Record<string, number>>;
  /** sampled over this pass alone (as maou monitors each pass); null without --enable-resource-monitoring */
  readonly resources: ResourceSummary | null;
}

/** Blocks of the report that may be null; each null one is explained in `null_reasons`. @public */
export type NullableBlock = 'validation_metrics' | 'estimation' | 'resources' | 'profile' | 'io' | 'resource_limits';

/** One setting that detected resource limits drive, and how it was decided. @public */
export interface ResourceDecision {
  readonly setting: 'threads' | 'workers' | 'batch_size';
  /** the value the run used */
  readonly value: number | null;
  /**
   * derived: from the limits; user: given on the command line; default: the tool's default, within the limits;
   * calibration: the loader calibration's choice; out-of-memory: a smaller batch after running out of memory;
   * study: a sweep point of a batch study; backend: the threads the started backend runs, whatever was asked
   */
  readonly origin: 'derived' | 'user' | 'default' | 'calibration' | 'out-of-memory' | 'study' | 'backend';
  readonly reason: string;
  /** the decision this one replaced, when calibration, an out-of-memory retry, a sweep point or the backend changed it */
  readonly replaced?: ResourceDecision;
}

/** Resource limits as detected once per run (cgroup v2, then v1; CPU affinity; memory), and what they decided. @public */
export interface ResourceLimitsReport {
  readonly cgroup: 'v2' | 'v1' | 'none';
  readonly cpu_quota_cores: number | null;
  readonly memory_limit_bytes: number | null;
  readonly affinity_cpus: number;
  readonly host_memory_bytes: number;
  readonly cpu_cores: number;
  readonly memory_bytes: number;
  readonly decisions: readonly ResourceDecision[];
}

/** Predicted time of one full epoch, as an interval. @public */
export interface EpochEstimate {
  readonly batches_per_epoch: number;
  readonly samples_per_epoch: number;
  readonly predicted_ms: number;
  readonly predicted_ms_ci95: readonly [number, number];
  readonly warmup_cost_ms: number;
  readonly method: string;
  /** (high − low) / 2 ÷ predicted */
  readonly half_width_fraction?: number;
  /** the batch-time trend on the batches the mean rests on (null below 8 of them) */
  readonly trend?: BatchTrend | null;
  /** the batch time still trended when the run stopped; the interval allows for it */
  readonly trending?: boolean;
  /** steady batches left out of the mean because other processes took the CPU */
  readonly excluded_disturbed_batches?: number;
  /** most steady batches were disturbed; the interval spans a quiet machine to one this busy */
  readonly disturbed?: boolean;
  readonly contention?: ContentionSummary;
  /** the run-to-run share of the interval, and whether this machine's earlier runs measured it */
  readonly run_to_run?: RunToRunSpread;
  /** the share by which the remaining batches are counted faster than the steady mean, and where it came from */
  readonly residual_fall?: ResidualFall;
  /** streaming: the file boundaries still ahead and the wait each is counted with; null for map-style loading */
  readonly file_boundaries?: FileBoundaries | null;
  /** how the run decided to stop, and how long it took to get there */
  readonly stopping?: StoppingOutcome;
  /** plain-language caveats: trend, disturbance, budget */
  readonly notes?: readonly string[];
}

/**
 * What a look cannot see of the next run (95 %, a share of the epoch): 'machine' when the wander of this machine's
 * earlier runs at the look's length (`window_s`) set it, 'assumed' when no record had enough windows yet.
 * @public
 */
export interface RunToRunSpread {
  readonly fraction: number;
  readonly source: 'machine' | 'assumed';
  readonly window_s: number | null;
  readonly runs: number;
}

/**
 * How much faster (negative: slower) the rest of an epoch runs than a look's steady mean: 'machine' when this
 * machine's earlier runs measured it after a look of `after_batches`, 'assumed' (the constant) before about three had.
 * @public
 */
export interface ResidualFall {
  readonly fraction: number;
  readonly source: 'machine' | 'assumed';
  readonly after_batches: number | null;
  /** earlier runs behind it, older ones counting less (0.9 each) */
  readonly runs: number;
}

/**
 * A streaming epoch's file boundaries: at each, the consumer waits for its producer to read the next file (at Stage 2,
 * group). `stall_ms` is what each boundary ahead is counted with: 'observed' from the boundaries among the steady
 * batches, 'read-time' (none crossed yet) from the producers' `read_ms` less `lead_batches` steady batches held ready.
 * @public
 */
export interface FileBoundaries {
  readonly reads_per_epoch: number;
  readonly lead_batches: number;
  /** the reads run on loader threads beside the step (false: the main thread's, which block it) */
  readonly beside_step: boolean;
  readonly reads_seen: number;
  readonly ahead: number;
  readonly stall_ms: number;
  readonly source: 'observed' | 'read-time';
  readonly observed: number;
  readonly read_ms: number;
}

/** Why the run stopped measuring, and when. @public */
export interface StoppingOutcome {
  readonly reason: StopReason;
  readonly target_precision: number | null;
  readonly time_budget_ms: number | null;
  /** wall time of the training batches up to the stop */
  readonly time_to_answer_ms: number;
  readonly batches: number;
}

/** What was scaled from a sample, and how. @public */
export interface SamplingEstimate {
  readonly sample_ratio: number;
  readonly sampled_samples_per_epoch: number;
  readonly full_samples_per_epoch: number;
  readonly full_epoch_ms: number;
  readonly full_epoch_ms_ci95: readonly [number, number];
  readonly method: string;
}

/** One fired recommendation rule. @public */
export interface Recommendation {
  readonly rule: string;
  readonly severity: 'info' | 'suggestion' | 'warning';
  readonly message: string;
  readonly flag: string | null;
  readonly value: string | null;
  /** the figure that triggered the rule, e.g. "data_wait share 0.42 > 0.20" */
  readonly evidence: string;
}

/** Sampled resource use, summarised. @public */
export interface ResourceSummary {
  readonly interval_ms: number;
  readonly samples: number;
  readonly cpu_percent: { readonly mean: number; readonly peak: number };
  readonly rss_bytes: { readonly mean: number; readonly peak: number };
  readonly heap_used_bytes: { readonly mean: number; readonly peak: number };
  readonly gpu_util_percent: { readonly mean: number; readonly peak: number } | null;
  readonly gpu_memory_bytes: { readonly mean: number; readonly peak: number } | null;
  /** the device's total memory; null where never sampled */
  readonly gpu_memory_total_bytes: number | null;
  readonly timeline: readonly {
    readonly t_ms: number;
    readonly cpu_percent: number;
    readonly rss_bytes: number;
    readonly heap_used_bytes: number;
    readonly gpu_util_percent: number | null;
  }[];
}

/** Per-kernel profile aggregated by kernel and by phase. @public */
export interface ProfileSummary {
  readonly by_kernel: readonly { readonly kernel: string; readonly calls: number; readonly total_ms: number }[];
  readonly by_phase: Readonly<
    Record<string, readonly { readonly kernel: string; readonly calls: number; readonly total_ms: number }[]>
  >;
  readonly tensors_by_phase: Readonly<Record<string, number>>;
  readonly trace_path: string | null;
}

/** Where the run happened. @public */
export interface EnvironmentInfo {
  readonly node: string;
  readonly platform: string;
  readonly arch: string;
  readonly cpus: number;
  readonly cpu_model: string;
  readonly memory_bytes: number;
  readonly tfjs_version: string;
  readonly backend: string;
  readonly backend_version: string;
  readonly threads: number;
  readonly device: string;
  readonly backend_notes: readonly string[];
  /** where the backend computed, from the backend registry: `host` (the CPU) or `device` (a GPU); absent in reports
   * written before it was recorded */
  readonly backend_placement?: 'host' | 'device';
  readonly maou_bench_version: string;
  /**
   * milliseconds the run waited for other runs in the same process before it started: runs take turns, tfjs having one
   * backend per process; absent in reports written before it was recorded
   */
  readonly queued_ms?: number;
  /** how the backend ran a training step, where the trainer plans it (webgpu's planned step) */
  readonly backend_step?: BackendStepSummary;
}

/** How a webgpu step ran: a planned step's dispatches and host time to record and submit, or the tfjs path (counts null). @public */
export interface BackendStepSummary {
  readonly kind: string;
  readonly dispatches_per_step: number | null;
  readonly submits_per_step: number | null;
  /** median host milliseconds per measured step for uploading the batch, encoding and submitting (not the GPU wait) */
  readonly host_ms_per_step: number | null;
  /** 'mixed' with `--mixed-precision` (details in `mixed_precision`), else 'f32' */
  readonly precision?: 'f32' | 'mixed';
  readonly mixed_precision?: MixedPrecisionSummary;
  readonly notes: readonly string[];
}

/** What `--mixed-precision` ran with, and the dynamic loss scaling's state at the end of the run. @public */
export interface MixedPrecisionSummary {
  readonly activations: 'f16';
  readonly master_weights: 'f32';
  readonly initial_loss_scale: number;
  /** the loss scale after the last step whose loss was read (null before any) */
  readonly loss_scale: number | null;
  /** optimiser steps skipped because a gradient was inf or NaN (the scale then halves) */
  readonly skipped_steps: number | null;
  /** good steps in a row after which the scale doubles */
  readonly growth_interval: number;
}

/** The versioned payload of one `benchmark-training` run. @public */
export interface BenchmarkTrainingReport {
  readonly schema_version: typeof REPORT_SCHEMA_VERSION;
  readonly command: 'benchmark-training';
  readonly created_at: string;
  readonly stage: 1 | 2 | 3;
  readonly model: {
    readonly preset: string;
    readonly parameters: number;
    /** what the optimiser updates (`--freeze-backbone` / `--trainable-layers`); absent in reports before it */
    readonly trainable_parameters?: number;
    readonly multiply_adds_per_sample: number;
  };
  readonly config: Readonly<Record<string, unknown>>;
  readonly environment: EnvironmentInfo;
  readonly data_load_method: Readonly<Record<string, unknown>>;
  readonly io: Readonly<Record<string, unknown>> | null;
  readonly training_metrics: TrainingMetrics;
  readonly validation_metrics: ValidationMetrics | null;
  readonly epoch_estimate: EpochEstimate;
  readonly estimation: SamplingEstimate | null;
  readonly recommendations: readonly Recommendation[];
  readonly resources: ResourceSummary | null;
  readonly profile: ProfileSummary | null;
  /** why each null block above is null */
  readonly null_reasons: Readonly<Partial<Record<NullableBlock, string>>>;
  /** null when the caller did not detect limits (library use without the CLI) */
  readonly resource_limits: ResourceLimitsReport | null;
  readonly batches: readonly BatchTiming[];
  /** `--adaptive-batch` runs only: the accumulation steps over time and the measured noise scale */
  readonly adaptive_batch?: AdaptiveBatchReport;
  /** `--gradient-checkpointing` / `--freeze-backbone` / `--trainable-layers` runs only: what the knobs cost and save */
  readonly knob_cost?: KnobCostReport;
  /** the same run in maou's payload layout: maou's key names, units (seconds) and nesting */
  readonly maou: MaouTrainingPayload;
  /** maou keys this payload leaves out, each with why it cannot be computed here */
  readonly maou_omitted: Readonly<Record<string, string>>;
  /** present only when a signal stopped the run early: the figures then cover the batches completed before it */
  readonly interrupted?: true;
  readonly interruption?: Interruption;
}

/** Why and when a run stopped early. @public */
export interface Interruption {
  readonly reason: string;
  readonly completed_batches: number;
  readonly planned_batches: number;
}

/** The fields `benchmark-compare` reads, the same in every readable schema version. @public */
export type ComparableTrainingReport = Pick<
  BenchmarkTrainingReport,
  'batches' | 'environment' | 'config' | 'training_metrics' | 'model'
> & { readonly schema_version: number };
