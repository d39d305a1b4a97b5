import type { TrainingConfig } from '../config/benchmark-config';
import { quantileSorted } from '../stats/summary';

/** One side of a knob comparison: the run's settings, or the same network with the knobs off. @public */
export interface KnobSide {
  /** the knobs as flags, or "none" */
  readonly setting: string;
  readonly trainable_parameters: number;
  /** median of the timed steps */
  readonly step_ms: number;
  /** median backward phase of the timed steps */
  readonly backward_ms: number;
  /** peak tensor bytes during one profiled step; null where the backend does not report it */
  readonly peak_tensor_bytes: number | null;
}

/**
 * What `--gradient-checkpointing` and freezing (`--freeze-backbone`, `--trainable-layers`) cost and save, measured
 * in the run on fresh trainers for both sides. @public
 */
export interface KnobCostReport {
  readonly knobs: readonly string[];
  readonly method: string;
  readonly with: KnobSide;
  readonly without: KnobSide;
  /** with ÷ without − 1, e.g. 0.4 = 40 % more; null where the side without has no figure */
  readonly step_change: number | null;
  readonly backward_change: number | null;
  readonly peak_tensor_change: number | null;
}

/** The knobs of `training` that change what a step computes or keeps, as flags; empty when none is on. @public */
export const costedKnobs = (training: TrainingConfig): string[] => [
  ...(training.gradientCheckpointing ? ['--gradient-checkpointing'] : []),
  ...(training.freezeBackbone ? ['--freeze-backbone'] : []),
  ...(training.trainableLayers !== undefined && training.trainableLayers !== null
    ? [`--trainable-layers ${training.trainableLayers}`]
    : []),
];

/** The same training settings with every costed knob off: the comparison's other side. @public */
export const withoutCostedKnobs = (training: TrainingConfig): TrainingConfig => ({
  ...training,
  gradientCheckpointing: false,
  freezeBackbone: false,
  trainableLayers: null,
});

const median = (xs: readonly number[]): number =>
  quantileSorted(
    [...xs].sort((a, b) => a - b),
    0.5,
  );

/** Measured steps of one side. @public */
export interface KnobSideSteps {
  readonly setting: string;
  readonly trainableParameters: number;
  readonly stepsMs: readonly number[];
  readonly backwardMs: readonly number[];
  readonly peakTensorBytes: number | null;
}

/** Medians of each side and the relative change the knobs make. @public */
export const summarizeKnobCost = (
  knobs: readonly string[],
  method: string,
  on: KnobSideSteps,
  off: KnobSideSteps,
): KnobCostReport => {
  if (!on.stepsMs.length || !off.stepsMs.length) throw new Error('knob cost: each side needs a timed step');
  const side = (s: KnobSideSteps): KnobSide => ({
    setting: s.setting,
    trainable_parameters: s.trainableParameters,
    step_ms: median(s.stepsMs),
    backward_ms: median(s.backwardMs),
    peak_tensor_bytes: s.peakTensorBytes,
  });
  const a = side(on);
  const b = side(off);
  const change = (x: number | null, y: number | null): number | null =>
    x !== null && y !== null && y > 0 ? x / y - 1 : null;
  return {
    knobs,
    method,
    with: a,
    without: b,
    step_change: change(a.step_ms, b.step_ms),
    backward_change: change(a.backward_ms, b.backward_ms),
    peak_tensor_change: change(a.peak_tensor_bytes, b.peak_tensor_bytes),
  };
};
