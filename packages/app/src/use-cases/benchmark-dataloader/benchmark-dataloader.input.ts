import type { StopRequest } from '../benchmark-training/benchmark-training.input';
import type {
  PointsInterruption,
  ComputeConfig,
  DataLoaderConfig,
  DataSourceSpec,
  ResourceLimitsReport,
  Stage,
  TrainingConfig,
} from '@maou/bench-domain';

/** The grid and how each point is measured. @public */
export interface BenchmarkDataloaderInput {
  readonly stage: Stage;
  readonly source: DataSourceSpec;
  readonly sampleRatio: number | null;
  /** loader settings besides the grid axes (pin memory, streaming, cache mode, seed …) */
  readonly loader: DataLoaderConfig;
  readonly training: TrainingConfig;
  readonly compute: ComputeConfig;
  readonly workers: readonly number[];
  readonly prefetchFactors: readonly number[];
  readonly batchSizes: readonly number[];
  readonly repeats: number;
  readonly numBatches: number;
  readonly warmupBatches: number;
  /** a point keeps the model fed when its slowest repeat beats consumption × (1 + margin) */
  readonly noiseMargin: number;
  /** timed training steps per batch size for the model's own rate; 0 skips the model */
  readonly consumptionSteps: number;
  /** sample CPU, memory and GPU per point, and each loading thread's busy share, memory and cache hits */
  readonly enableResourceMonitoring?: boolean;
  /** limits detected for this run; carried into the output */
  readonly resourceLimits?: ResourceLimitsReport;
  /** checked before each grid point: once aborted, the grid stops and reports the points it measured */
  readonly stop?: StopRequest;
}

/** One loading thread over a point's timed batches. @public */
export interface LoaderThreadUse {
  readonly thread: 'main' | number;
  /** event-loop busy time ÷ (busy + idle) over the window: 1 = never waiting for credit or I/O */
  readonly busy_share: number;
  readonly busy_ms: number;
  readonly heap_used_bytes: number;
  readonly external_bytes: number;
}

/** Resource use of one grid point (`--enable-resource-monitoring`); each null figure has a reason. @public */
export interface PointResources {
  readonly process_cpu_percent: { readonly mean: number; readonly peak: number };
  readonly rss_bytes: { readonly mean: number; readonly peak: number };
  readonly gpu_util_percent: { readonly mean: number; readonly peak: number } | null;
  readonly threads: readonly LoaderThreadUse[];
  /** mean busy share of the loading threads */
  readonly worker_efficiency: number;
  /** map-style shard lookups served already decoded ÷ all lookups; null when streaming */
  readonly cache_hit_rate: number | null;
  readonly null_reasons: Readonly<Partial<Record<'gpu_util_percent' | 'cache_hit_rate', string>>>;
}

/** One grid point: its repeats and their spread. @public */
export interface GridPoint {
  readonly batchSize: number;
  readonly workers: number;
  readonly prefetchFactor: number | null;
  readonly samplesPerSecond: {
    readonly median: number;
    readonly min: number;
    readonly max: number;
    readonly runs: readonly number[];
  };
  readonly p95WaitMs: number;
  /** wall time of the timed batches of every repeat (warm-up excluded), and how many batches they were */
  readonly timedMs: number;
  readonly timedBatches: number;
  /** null when the model's rate was not measured */
  readonly keepsModelFed: boolean | null;
  /** null without --enable-resource-monitoring */
  readonly resources: PointResources | null;
}

/** The setting chosen for one batch size. @public */
export interface Recommendation {
  readonly batchSize: number;
  readonly workers: number;
  readonly prefetchFactor: number | null;
  readonly loaderSamplesPerSecond: number;
  readonly modelSamplesPerSecond: number | null;
  /** fed: cheapest point that keeps up; loader-bound: none does, fastest taken; no-model: fastest within the margin */
  readonly basis: 'fed' | 'loader-bound' | 'no-model';
  readonly flags: readonly string[];
}

/** What the command prints and writes. @public */
export interface BenchmarkDataloaderOutput {
  readonly backend: string;
  readonly device: string;
  /** whether the backend computes on a GPU (the registry's placement) */
  readonly onGpu: boolean;
  readonly dataset: string;
  readonly loaderMode: string;
  readonly points: readonly GridPoint[];
  readonly consumption: Readonly<Record<number, number | null>>;
  readonly perBatchSize: readonly Recommendation[];
  readonly recommended: Recommendation;
  /** limits detected for this run and the settings they decided; null when the caller passed none */
  readonly resourceLimits: ResourceLimitsReport | null;
  /** set when a stop request ended the grid early: `points` are those measured before it */
  readonly interruption?: PointsInterruption;
}
