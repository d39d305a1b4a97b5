import type { EpochEstimate, ResourceSummary, TrainingMetrics } from '../report/benchmark-report';

/** What the rules look at: the measured figures and the settings that produced them. @public */
export interface RecommendationContext {
  readonly metrics: TrainingMetrics;
  readonly epoch: EpochEstimate;
  readonly resources: ResourceSummary | null;
  readonly settings: {
    readonly batchSize: number;
    readonly workers: number;
    readonly prefetchFactor: number;
    readonly pinMemory: boolean;
    readonly devicePrefetch: number;
    readonly backend: string;
    /** the backend is a correctness fallback (its plug-in says so), not for speed */
    readonly fallback: boolean;
    /** the heap one training pass may use on a bounded-heap backend (wasm32: 4 GiB per replica); null: unbounded */
    readonly heapLimitBytes: number | null;
    readonly threads: number;
    readonly cores: number;
    readonly warmupBatches: number;
  };
}

/** Thresholds the rules use; exported so reports can state them. @public */
export const THRESHOLDS = {
  /** data wait share above which the run is input-bound */
  inputBound: 0.2,
  /** data wait share below which the run is compute-bound */
  computeBound: 0.05,
  hostToDevice: 0.1,
  /** coefficient of variation of batch time */
  variability: 0.3,
  /** relative half-width of the batch-time CI above which more batches are needed */
  ciHalfWidth: 0.1,
  /** share of the epoch the waits at streaming file boundaries may take before more batches ready are advised */
  fileBoundaries: 0.01,
  /** a bounded heap (wasm32's 4 GiB): training batches above this risk it */
  wasmBatch: 512,
} as const;
