import type { ComputeConfig, DataLoaderConfig, DataSourceSpec, Stage, TrainingConfig } from '@maou/bench-domain';

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
}

/** One grid point: its repeats and their spread. @public */
export interface GridPoint {
  readonly batchSize: number;
  readonly workers: number;
  readonly prefetchFactor: number | null;
  readonly samplesPerSecond: { readonly median: number; readonly min: number; readonly max: number; readonly runs: readonly number[] };
  readonly p95WaitMs: number;
  /** null when the model's rate was not measured */
  readonly keepsModelFed: boolean | null;
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
  readonly dataset: string;
  readonly loaderMode: string;
  readonly points: readonly GridPoint[];
  readonly consumption: Readonly<Record<number, number | null>>;
  readonly perBatchSize: readonly Recommendation[];
  readonly recommended: Recommendation;
}
