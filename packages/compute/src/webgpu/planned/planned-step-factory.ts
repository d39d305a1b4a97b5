import { TfjsTrainer, type TrainerFactory } from '@maou/bench-engine';
import { PlannedWebgpuTrainer, plannedStepRefusal } from './planned-trainer';

/** Which WebGPU training step `--gpu webgpu` runs: MAOU_WEBGPU_STEP=planned (default) or tfjs (the reference). @public */
export function webgpuStepChoice(env: Readonly<Record<string, string | undefined>> = process.env): 'planned' | 'tfjs' {
  const v = env.MAOU_WEBGPU_STEP ?? 'planned';
  if (v !== 'planned' && v !== 'tfjs') throw new Error(`MAOU_WEBGPU_STEP=${v}: expected 'planned' or 'tfjs'`);
  return v;
}

/**
 * Trainers for webgpu (its plug-in's `trainer`): the planned step (one submission per step), unless
 * MAOU_WEBGPU_STEP=tfjs asks for the tfjs path; a configuration the plan cannot run is refused with the reason,
 * never silently moved to the other path. `--mixed-precision` needs the planned step (only it has an f16 path).
 * @public
 */
export const plannedStepTrainers =
  (single: TrainerFactory): TrainerFactory =>
  (options) => {
    if (webgpuStepChoice() !== 'planned') {
      if (options.training.mixedPrecision)
        throw new Error(
          "--mixed-precision runs only on webgpu's planned step (f16 activations need shader-f16), not on the tfjs path (MAOU_WEBGPU_STEP=tfjs)",
        );
      return single(options);
    }
    const refusal = plannedStepRefusal(options);
    if (refusal)
      throw new Error(
        `--gpu webgpu: the planned step cannot run ${refusal}; set MAOU_WEBGPU_STEP=tfjs to train on the tfjs path`,
      );
    const reference = single(options);
    if (!(reference instanceof TfjsTrainer)) {
      reference.dispose();
      throw new Error("--gpu webgpu: the planned step needs the engine's tfjs trainer as its reference");
    }
    return new PlannedWebgpuTrainer(options, reference);
  };
