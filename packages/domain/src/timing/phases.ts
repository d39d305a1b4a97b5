import type { FileOpen } from '../data/host-batch';
import type { BatchCpu } from './contention';

/** Phases a training batch is split into; `other` is wall time no phase accounts for. @public */
export const PHASES = ['dataWait', 'hostToDevice', 'forward', 'loss', 'backward', 'optimizer', 'other'] as const;
/** @public */
export type Phase = (typeof PHASES)[number];
/** @public */
export type PhaseTimes = Readonly<Record<Phase, number>>;

/** One measured batch; the phases add up to `wallMs`. @public */
export interface BatchTiming {
  readonly index: number;
  readonly warmup: boolean;
  readonly samples: number;
  readonly startMs: number;
  readonly wallMs: number;
  readonly phases: PhaseTimes;
  /** the batch's mean weighted loss: the same figure at any accumulation (not divided by the cycle's steps) */
  readonly loss: number;
  readonly numTensors: number;
  /** CPU time around the batch, where the platform has the counters */
  readonly cpu?: BatchCpu;
  /** other processes took CPU this run would have used (see flagDisturbed) */
  readonly disturbed?: boolean;
  /** under gradient accumulation: the steps of the cycle this batch belongs to (its gradient, and maou's loss, ÷ them) */
  readonly accumulationSteps?: number;
  /** under gradient accumulation: this batch ended its cycle with an optimiser step */
  readonly optimizerStep?: boolean;
  /** the batch was the first of a file its producer read just before it (streaming): a file boundary */
  readonly fileOpen?: FileOpen;
}

/**
 * Completes measured device phases with the residual `other`, so the phases sum to the wall time.
 * A negative residual (clock jitter) is clamped to 0 and the wall time raised to the phase sum.
 * @public
 */
export const closePhases = (
  wallMs: number,
  measured: Readonly<Omit<Record<Phase, number>, 'other'>>,
): { readonly wallMs: number; readonly phases: PhaseTimes } => {
  const sum =
    measured.dataWait +
    measured.hostToDevice +
    measured.forward +
    measured.loss +
    measured.backward +
    measured.optimizer;
  const other = Math.max(0, wallMs - sum);
  return { wallMs: sum + other, phases: { ...measured, other } };
};
