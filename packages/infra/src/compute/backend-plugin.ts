import { type BackendInfo } from '@maou/bench-engine';
import { type ComputeConfig, type Result } from '@maou/bench-domain';

/** Why a backend could not start, with what to do about it. @public */
export interface BackendStartError {
  readonly backend: string;
  readonly message: string;
  /** e.g. the install command and system requirements */
  readonly hint?: string;
}

/**
 * A compute backend that can make itself the active tfjs backend. Registered in a `BackendRegistry`;
 * `auto` tries them by descending priority.
 * @public
 */
export interface BackendPlugin {
  readonly name: string;
  readonly priority: number;
  start(config: ComputeConfig): Promise<Result<BackendInfo, BackendStartError>>;
}
