import type { ComputeConfig } from '@maou/bench-domain';
import type { BackendInfo } from '@maou/bench-engine';

/** Makes a tfjs backend active in this process. @public */
export interface ComputeBackendPort {
  activate(config: ComputeConfig): Promise<BackendInfo>;
}
