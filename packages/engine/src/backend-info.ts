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
  /** a correctness fallback, not for speed (its plug-in says so; the cpu backend); set by the backend registry */
  readonly fallback?: boolean;
  /** where it computes: `host` (the CPU) or `device` (a GPU); set by the backend registry */
  readonly placement?: 'host' | 'device';
  /** network replicas training each batch in parallel (data-parallel backends); absent means one */
  readonly replicas?: number;
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
