import type { TrainerFactory } from '@maou/bench-engine/contracts';
import { DataParallelTrainer } from './data-parallel-trainer';

/**
 * Trainers for a backend that trains data-parallel (wasm: tfjs-wasm runs one thread per instance in Node): replicas in
 * worker threads when it runs more than one thread, otherwise what `single` builds.
 * @public
 */
export const dataParallelTrainers =
  (single: TrainerFactory): TrainerFactory =>
  (options) =>
    options.backend !== undefined && options.backend.threads > 1
      ? new DataParallelTrainer(options, options.backend.threads)
      : single(options);
