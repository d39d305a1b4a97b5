import type { ResourcePoint } from '@maou/bench-domain';

/** One sample of process and device use (GPU fields null where no GPU is visible). @public */
export type ResourceSample = ResourcePoint;

/** Samples resources on a fixed interval between start and stop. @public */
export interface ResourceMonitorPort {
  start(intervalMs: number): void;
  stop(): Promise<readonly ResourceSample[]>;
}
