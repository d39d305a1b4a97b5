/** One sample of process and device use. @public */
export interface ResourceSample {
  readonly tMs: number;
  readonly cpuPercent: number;
  readonly rssBytes: number;
  readonly heapUsedBytes: number;
  readonly gpuUtilPercent: number | null;
  readonly gpuMemoryBytes: number | null;
}

/** Samples resources on a fixed interval between start and stop. @public */
export interface ResourceMonitorPort {
  start(intervalMs: number): void;
  stop(): Promise<readonly ResourceSample[]>;
}
