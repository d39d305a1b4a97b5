import type { BackendInfo, TrainerFactory } from '@maou/bench-engine/contracts';
import { type BackendChoice } from '@maou/bench-use-cases';
import { type ComputeConfig, type Result } from '@maou/bench-domain';

/** Why a backend could not start, with what to do about it. @public */
export interface BackendStartError {
  readonly backend: string;
  readonly message: string;
  /** e.g. the install command and system requirements */
  readonly hint?: string;
}

/**
 * A compute backend that can make itself the active tfjs backend. Each one lives in its own folder and is added to
 * the `BackendRegistry` by one line in `register-backends.ts`; `auto` tries them by descending priority, no `--gpu`
 * the `host` ones (the use cases' `resolveGpu`). Its name, `--gpu` usage, help text, capabilities (placement, mixed
 * precision, bounded heap, data-parallel, address space) and trainer come from here, nowhere else: every help line
 * and check about backends reads these.
 * @public
 */
export interface BackendPlugin extends BackendChoice {
  readonly priority: number;
  readonly dataParallel: boolean;
  /**
   * How it trains, when not as the engine's trainer does: given the engine's factory, the factory its runs use (wasm:
   * data-parallel replicas; webgpu: the planned step). The registry hands it out; nothing tests backend names.
   */
  readonly trainer?: (single: TrainerFactory) => TrainerFactory;
  start(config: ComputeConfig): Promise<Result<BackendInfo, BackendStartError>>;
}

/** `selects` for a backend that `--gpu` names by its own name (device 0). @public */
export const selectedByName =
  (name: string) =>
  (value: string): number | null =>
    value === name ? 0 : null;
