// The training engine on tfjs-core (the tfjs-core of this project): what app, infra and cli use, nothing else.
// It imports only @maou/bench-domain and tfjs; no ports, no tsyringe, no reflect-metadata.

import './tfjs-declarations';

// Trainers: one network with its loss, optimiser and LR schedule, stepped on host batches.
export type {
  CyclePlan,
  EvalResult,
  ProfiledStep,
  StepResult,
  Trainer,
  TrainerFactory,
  TrainerOptions,
} from './trainer';
export { createTrainer, TfjsTrainer } from './tfjs-trainer';
export type { MonotonicClock } from './monotonic-clock';
export type { BackendInfo, GpuAdapterInfo } from './backend-info';
export type { GradientExchange } from './gradient-exchange';
export { NonFiniteValueError } from './anomaly';
export { profileStep } from './kernel-profiler';
export {
  heapSafeMicroBatch,
  networkMemoryRefusal,
  trainingMemory,
  type NetworkChoice,
  type TrainingMemory,
} from './network/heap-safe-micro-batch';
export { createLrSchedule, type LrSchedule } from './optim/lr-schedule';

// Device batches: a host batch copied to the backend (device prefetch hands these between passes).
export { disposeDeviceBatch, disposeUploadedBatch, isUploadedBatch, uploadBatch } from './device-batch';
export type { DevicePiece, UploadedBatch } from './uploaded-batch';

// Fused kernels a backend may register to replace the engine's composed ops.
export {
  ADAMW_KERNEL,
  BATCH_NORM_GRAD_KERNEL,
  BATCH_NORM_TRAIN_KERNEL,
  CLIP_BY_GLOBAL_NORM_KERNEL,
  DROPOUT_MASK_KERNEL,
  GELU_GRAD_KERNEL,
  GELU_KERNEL,
  hasKernel,
  LAYER_NORM_GRAD_KERNEL,
  LAYER_NORM_KERNEL,
} from './nn/fused-kernels';
export { dropoutKeep, dropoutMask, lowbias32 } from './nn/dropout';

// The network's shape (presets, stage strides, stem), for backends that plan the step themselves (webgpu).
export { NETWORK_PRESETS, type NetworkShape, STAGE_STRIDES, STEM } from './network/network-presets';

// Building blocks, for checking a backend's gradients against the reference kernels.
export { ShogiNetwork } from './network/shogi-network';
export { createObjective } from './stage-objective';
export { TapeRecorder } from './tape/tape-recorder';
export { SeededRandom } from './nn/seeded-random';
