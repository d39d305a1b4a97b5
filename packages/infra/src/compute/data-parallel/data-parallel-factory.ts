import type { TrainerFactory } from '@maou/bench-engine';
import { DataParallelTrainer } from './data-parallel-trainer';

/**
 * Trainers for the activated backend: data-parallel replicas when it is wasm with more than one thread (tfjs-wasm
 * runs one thread per instance in Node), otherwise what `single` builds.
 * @public
 */
export const dataParallelOnWasm = (single: TrainerFactory): TrainerFactory => (options) =>
  options.backend?.name === 'wasm' && options.backend.threads > 1 ? new DataParallelTrainer(options, options.backend.threads) : single(options);
