import type { ResourcePoint } from '@maou/bench-domain';

/** One sample of process and device use (GPU fields null where no GPU is visible). @public */
export type ResourceSample = ResourcePoint;

/**
 * Cumulative CPU counters since boot: this process (all threads), every CPU busy (this process included), and steal,
 * in milliseconds, over `cores` CPUs. @public
 */
export interface CpuCounters {
  readonly processMs: number;
  readonly busyMs: number;
  readonly stealMs: number;
  readonly cores: number;
}

/** Samples resources on a fixed interval between start and stop. @public */
export interface ResourceMonitorPort {
  start(intervalMs: number): void;
  stop(): Promise<readonly ResourceSample[]>;
  /** CPU counters now, for the contention of one batch; null where the system-wide counters cannot be read */
  cpuCounters(): CpuCounters | null;
}
