import type { GradientNormSample, HostBatch, PhaseKernels, Stage, TrainingConfig } from '@maou/bench-domain';
import type { BackendInfo } from './backend-info';
import type { MonotonicClock } from './monotonic-clock';
import type { UploadedBatch } from './uploaded-batch';
import type { NetworkShape } from './network/network-presets';

/** Device-side phases of one training step, each timed after the backend finished it. @public */
export interface StepPhasesMs {
  readonly hostToDevice: number;
  readonly forward: number;
  readonly loss: number;
  readonly backward: number;
  readonly optimizer: number;
}

/** One training step's outcome. @public */
export interface StepResult {
  /** the batch's mean weighted loss (policy × ratio + value × ratio), not divided by the accumulation steps */
  readonly loss: number;
  readonly phasesMs: StepPhasesMs;
  /** live tensors after the step, to catch leaks */
  readonly numTensors: number;
  /** the backend's memory figure after the step (`backendMemoryBytes`); for data-parallel replicas, the largest */
  readonly memoryBytes?: number;
  /** with `measureGradientNorms`, on steps that updated the weights: the pieces' and the update's gradient norms */
  readonly gradientNorms?: GradientNormSample;
  /** under gradient accumulation (more than one step a cycle, or a planned cycle): the batch's cycle */
  readonly accumulation?: { readonly steps: number; readonly optimizerStep: boolean };
}

/** A step profiled kernel by kernel. @public */
export interface ProfiledStep {
  readonly result: StepResult;
  readonly phases: PhaseKernels[];
  /** the most tensor bytes alive at once during the step (on one replica); absent where not measured */
  readonly peakBytes?: number;
}

/** The next accumulation cycle, as an adaptive-batch controller plans it. @public */
export interface CyclePlan {
  readonly accumulationSteps: number;
  /** report the cycle's gradient norms (`StepResult.gradientNorms`) */
  readonly measureGradientNorms: boolean;
}

/** One inference-only step's outcome; metrics are stage specific (e.g. policy accuracy). @public */
export interface EvalResult {
  readonly loss: number;
  readonly metrics: Readonly<Record<string, number>>;
  readonly phasesMs: Pick<StepPhasesMs, 'hostToDevice' | 'forward' | 'loss'>;
}

/**
 * A network with its loss, optimiser and LR schedule, ready to train on host batches.
 *
 * `step`/`evaluate` take a host batch (uploaded inside, `hostToDevice` = the copy) or a batch from `upload`
 * (device prefetch: `hostToDevice` = the wait until the earlier copy has landed). An uploaded batch handed to
 * `step`/`evaluate` is theirs and freed by them, also on error; one never handed over is freed by the caller
 * (`disposeUploadedBatch`).
 * @public
 */
export interface Trainer {
  readonly stage: Stage;
  readonly parameterCount: number;
  /** parameters the optimiser updates (`--freeze-backbone` / `--trainable-layers` leave the rest); absent: all */
  readonly trainableParameterCount?: number;
  readonly multiplyAddsPerSample: number;
  step(batch: HostBatch | UploadedBatch, clock: MonotonicClock): Promise<StepResult>;
  evaluate(batch: HostBatch | UploadedBatch, clock: MonotonicClock): Promise<EvalResult>;
  /**
   * Optional: starts copying a batch to the device, split into the pieces `step` runs (`'train'`: micro-batches)
   * or one piece (`'evaluate'`). Without it, callers pass host batches only.
   */
  upload?(batch: HostBatch, use: 'train' | 'evaluate'): UploadedBatch;
  /** Optional: resolves once the trainer can step (e.g. worker replicas started), so start-up is not timed. */
  ready?(): Promise<void>;
  /**
   * Optional: one `step` profiled kernel by kernel, for trainers whose kernels run outside this thread (where
   * `tf.profile` here would see none).
   */
  profiledStep?(batch: HostBatch, clock: MonotonicClock, batchIndex: number): Promise<ProfiledStep>;
  /**
   * Optional: the plan for the next accumulation cycle, taking effect at the next cycle boundary (a cycle in
   * progress keeps its steps, as maou changes them only when a cycle completes).
   */
  planCycle?(plan: CyclePlan): void;
  currentLearningRate(): number;
  dispose(): void;
}

/** Options that do not come from the user's training flags. @public */
export interface TrainerOptions {
  readonly stage: Stage;
  readonly training: TrainingConfig;
  /** optimiser steps the LR schedule spans (a full epoch) */
  readonly totalSteps: number;
  readonly seed: number;
  /** the network's blocks and widths instead of the preset's (specs: the same topology, narrower) */
  readonly networkShape?: NetworkShape;
  /**
   * Rows per forward/backward pass inside one `step` (gradients are summed over the pieces, each piece's
   * mean loss weighted by its share of the batch); defaults to the whole batch. Lets large batches fit
   * small heaps (wasm32: 4 GiB). Batch norm then sees each piece as its own batch: activations are
   * normalised with the piece's statistics (as PyTorch does under gradient accumulation, "ghost" batch
   * norm), and the running mean/variance take one momentum update per piece, so the step is not
   * bit-for-bit the full-batch step.
   */
  readonly microBatchSize?: number;
  /**
   * Index of this data-parallel replica: its dropout masks get their own stream, while the weights start the same
   * as every other replica's. Absent for a trainer on its own.
   */
  readonly replica?: number;
  /** The backend the run activated; a factory may pick an implementation by it (e.g. data-parallel on wasm). */
  readonly backend?: BackendInfo;
  /**
   * Report each update's gradient norms (`StepResult.gradientNorms`): one squared norm per micro-batch and one of
   * the summed update, before clipping. Costs one reduction over the gradients per piece; off in timed runs.
   */
  readonly measureGradientNorms?: boolean;
}

/** Builds trainers; the engine module provides the real one. @public */
export type TrainerFactory = (options: TrainerOptions) => Trainer;
