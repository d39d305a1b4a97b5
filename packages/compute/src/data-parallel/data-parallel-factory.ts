import type { TrainerFactory } from '@maou/bench-engine';
import type { BackendRegistry } from '../backend-registry';
import { DataParallelTrainer } from './data-parallel-trainer';

/**
 * Trainers for the activated backend: data-parallel replicas when its plug-in says it trains that way (wasm: tfjs-wasm
 * runs one thread per instance in Node) and it runs more than one thread, otherwise what `single` builds.
 * @public
 */
export const dataParallelWhereSupported =
  (registry: BackendRegistry, single: TrainerFactory): TrainerFactory =>
  (options) =>
    options.backend !== undefined &&
    options.backend.threads > 1 &&
    registry.get(options.backend.name)?.dataParallel === true
      ? new DataParallelTrainer(options, options.backend.threads)
      : single(options);
