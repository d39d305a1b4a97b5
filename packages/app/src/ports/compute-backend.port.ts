import type { ComputeConfig } from '@maou/bench-domain';

/** What the run really used, for the report. @public */
export interface BackendInfo {
  readonly name: string;
  readonly version: string;
  readonly threads: number;
  readonly device: string;
  /** e.g. wasm fast-gradient kernels, software GPU adapter */
  readonly notes: readonly string[];
  /** the most memory one training pass may use (wasm32's heap: 4 GiB per replica); absent where not bounded */
  readonly heapLimitBytes?: number;
  /** the GPU adapter a WebGPU backend runs on; absent for other backends */
  readonly gpuAdapter?: GpuAdapterInfo;
}

/** A WebGPU adapter as the driver names it; `softwareFallback` is true for CPU drivers (lavapipe). @public */
export interface GpuAdapterInfo {
  readonly vendor: string;
  readonly architecture: string;
  readonly device: string;
  readonly description: string;
  readonly softwareFallback: boolean;
}

/**
 * How one registered backend is chosen on the command line and described in `--help`. The backend registry in infra
 * lists them; the interface layer validates `--gpu` against that list.
 * @public
 */
export interface BackendChoice {
  readonly name: string;
  /** what `--gpu` takes for it: the name itself, or a form such as `cuda:N` */
  readonly usage: string;
  /** a few words for `--help` after the usage, e.g. `tfjs-node-gpu`; empty for none */
  readonly help: string;
  /** `host` computes on the CPU (these are tried, by priority, when no `--gpu` is given); `device` on a GPU */
  readonly placement: 'host' | 'device';
  /** the device index when `value` (lower case) selects this backend, otherwise null */
  selects(value: string): number | null;
}

/** Makes a tfjs backend active in this process. @public */
export interface ComputeBackendPort {
  activate(config: ComputeConfig): Promise<BackendInfo>;
}
