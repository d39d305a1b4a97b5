// @maou/bench-engine/contracts: the engine's types that the use cases and their ports name, and no tfjs type. The
// packages' public declarations import these from here, never from the index (which loads tfjs-core's declarations,
// and with them the DOM lib and @webgpu/types), so a consumer's type-check gets none of those (issue 42).
export type {
  CyclePlan,
  EvalResult,
  ProfiledStep,
  StepPhasesMs,
  StepResult,
  Trainer,
  TrainerFactory,
  TrainerOptions,
} from './trainer';
export type { BackendInfo, GpuAdapterInfo } from './backend-info';
export type { MonotonicClock } from './monotonic-clock';
export type { DevicePiece, UploadedBatch } from './uploaded-batch';
export type { NetworkShape } from './network/network-presets';
export type { NetworkChoice } from './network/heap-safe-micro-batch';
