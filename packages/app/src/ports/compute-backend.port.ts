import type { ComputeConfig } from '@maou/bench-domain';

/** What the run really used, for the report. @public */
export interface BackendInfo {
  readonly name: string;
  readonly version: string;
  readonly threads: number;
  readonly device: string;
  /** e.g. wasm fast-gradient kernels, software GPU adapter */
  readonly notes: readonly string[];
}

/** Makes a tfjs backend active in this process. @public */
export interface ComputeBackendPort {
  activate(config: ComputeConfig): Promise<BackendInfo>;
}
