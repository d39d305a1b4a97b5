import type { DataLoaderConfig } from '@maou/bench-domain';
import type { DataSourcePort } from '../../ports/data-source.port';

/** `--calibrate` (use a valid cached result, else measure), `--no-calibrate`, `--force-calibration`. @public */
export type CalibrationMode = 'calibrate' | 'off' | 'force';

/** Everything that changes the answer; two runs share a cached result only when all of it is equal. @public */
export interface CalibrationSignature {
  readonly cpuCores: number;
  readonly memoryBytes: number;
  readonly os: string;
  readonly node: string;
  readonly tfjs: string;
  readonly backend: string;
  readonly backendVersion: string;
  readonly batchSize: number;
  readonly dataset: string;
  readonly streaming: boolean;
  readonly pinMemory: boolean;
}

/** Input of one calibration. @public */
export interface CalibrateLoaderInput {
  readonly mode: CalibrationMode;
  readonly source: DataSourcePort;
  /**
   * the run's loader settings; calibration only chooses workers and prefetch factor. The batch size is the resource
   * plan's decision (the domain's `planResources`), halved only when a candidate runs out of memory.
   */
  readonly base: DataLoaderConfig;
  readonly signature: CalibrationSignature;
  /** candidates never exceed these */
  readonly limits: { readonly maxWorkers: number };
  /** settings the user gave explicitly: calibration keeps them and only searches the rest */
  readonly fixed?: { readonly workers?: number; readonly prefetchFactor?: number };
  readonly budgetMs: number;
  readonly batchesPerCandidate: number;
  readonly ttlMs: number;
}

/** The chosen loader settings and what they delivered. @public */
export interface CalibrationChoice {
  readonly workers: number;
  readonly prefetchFactor: number;
  readonly batchSize: number;
  readonly samplesPerSecond: number;
  readonly p95WaitMs: number;
}

/** One measured candidate. @public */
export interface CandidateResult extends CalibrationChoice {
  readonly stoppedEarly: boolean;
  readonly error: string | null;
}

/** Where the settings came from. @public */
export interface CalibrateLoaderOutput {
  readonly origin: 'cache' | 'measured' | 'off';
  readonly choice: CalibrationChoice;
  readonly candidates: readonly CandidateResult[];
}
