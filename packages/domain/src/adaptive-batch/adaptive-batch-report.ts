import type { BatchTiming } from '../timing/phases';
import type { AdaptiveBatchSettings } from './adaptive-batch';

/** One optimiser step of an `--adaptive-batch` run: its cycle, what was measured, and what the controller chose. @public */
export interface AdaptiveBatchCycle {
  /** 1-based, as maou counts them */
  readonly optimizer_step: number;
  /** index of the cycle's first batch */
  readonly first_batch: number;
  readonly accumulation_steps: number;
  /** the cycle's gradients were measured (every `measurement_interval` optimiser steps) */
  readonly measured: boolean;
  /** this cycle's B_noise; null when not measured or discarded */
  readonly noise_scale: number | null;
  /** discarded because K·S/G ≤ 1 (the pieces' gradients agreed: negligible noise) */
  readonly low_noise: boolean;
  /** the EMA after this step */
  readonly smoothed_noise_scale: number | null;
  /** the steps of the next cycle */
  readonly next_accumulation_steps: number;
}

/** How the epoch prediction counts the optimiser steps of an adaptive run. @public */
export interface AdaptiveEpochCorrection {
  /** mean optimiser-phase time of the steady batches that stepped */
  readonly optimizer_ms_per_step: number;
  /** optimiser steps per batch among the steady batches (what the steady mean batch time carries) */
  readonly measured_steps_per_batch: number;
  readonly remaining_batches: number;
  /** the rest of the epoch (and the cycle in progress) at the last chosen accumulation steps */
  readonly predicted_remaining_steps: number;
  /** added to the prediction: (predicted − measured share × remaining batches) × optimiser time per step */
  readonly correction_ms: number;
}

/** The `adaptive_batch` block of a report. @public */
export interface AdaptiveBatchReport {
  readonly settings: {
    readonly min_steps: number;
    readonly max_steps: number;
    readonly interval: number;
    readonly smoothing: number;
    readonly measurement_interval: number;
  };
  readonly physical_batch_size: number;
  /** the accumulation steps over time: the first cycle's, then each change, from the batch it took effect */
  readonly steps_chosen: readonly { readonly from_batch: number; readonly accumulation_steps: number }[];
  readonly cycles: readonly AdaptiveBatchCycle[];
  readonly optimizer_steps: number;
  readonly final_accumulation_steps: number;
  readonly smoothed_noise_scale: number | null;
  readonly epoch: AdaptiveEpochCorrection | null;
  readonly notes: readonly string[];
}

/** The settings in the report's snake_case. @public */
export const adaptiveSettingsBlock = (s: AdaptiveBatchSettings): AdaptiveBatchReport['settings'] => ({
  min_steps: s.minSteps,
  max_steps: s.maxSteps,
  interval: s.interval,
  smoothing: s.smoothing,
  measurement_interval: s.measurementInterval,
});

/** Where the accumulation steps changed: the first cycle's steps, then every cycle whose steps differ. @public */
export const stepsChosen = (
  cycles: readonly AdaptiveBatchCycle[],
  initialSteps: number,
): AdaptiveBatchReport['steps_chosen'] => {
  const out = [{ from_batch: 0, accumulation_steps: initialSteps }];
  for (const c of cycles) {
    const next = c.first_batch + c.accumulation_steps;
    if (c.next_accumulation_steps !== out.at(-1)!.accumulation_steps)
      out.push({ from_batch: next, accumulation_steps: c.next_accumulation_steps });
  }
  return out;
};

/**
 * The steady mean batch time carries the optimiser steps at the share the run measured; the rest of the epoch steps
 * once every `finalSteps` batches. Null when no steady batch stepped (no optimiser time to scale).
 * @public
 */
export const adaptiveEpochCorrection = (
  timings: readonly BatchTiming[],
  steadyStart: number,
  batchesPerEpoch: number,
  finalSteps: number,
): AdaptiveEpochCorrection | null => {
  const steady = timings.slice(steadyStart);
  const stepped = steady.filter((t) => t.optimizerStep);
  if (stepped.length === 0) return null;
  const optimizerMs = stepped.reduce((a, t) => a + t.phases.optimizer, 0) / stepped.length;
  const share = stepped.length / steady.length;
  const remaining = Math.max(0, batchesPerEpoch - timings.length);
  const lastStep = timings.reduce((last, t, i) => (t.optimizerStep ? i : last), -1);
  const pending = timings.length - 1 - lastStep;
  const predicted = Math.floor((pending + remaining) / finalSteps);
  return {
    optimizer_ms_per_step: optimizerMs,
    measured_steps_per_batch: share,
    remaining_batches: remaining,
    predicted_remaining_steps: predicted,
    correction_ms: (predicted - share * remaining) * optimizerMs,
  };
};
