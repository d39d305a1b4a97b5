import { TfjsTrainer } from '@maou/bench-engine';
import type { Trainer, TrainerFactory } from '@maou/bench-engine/contracts';
import { type BackendStepSummary, isResNetPreset, type ModelPreset } from '@maou/bench-domain';
import { PlannedWebgpuTrainer, plannedStepRefusal } from './planned-trainer';

/**
 * Which WebGPU training step `--gpu webgpu` runs: MAOU_WEBGPU_STEP=planned or tfjs (the reference). Unset, the
 * planned step for the ResNet presets and the tfjs path for the token backbones, which the plan does not build.
 * @public
 */
export function webgpuStepChoice(
  env: Readonly<Record<string, string | undefined>> = process.env,
  preset: ModelPreset = 'resnet',
): 'planned' | 'tfjs' {
  const v = env.MAOU_WEBGPU_STEP ?? (isResNetPreset(preset) ? 'planned' : 'tfjs');
  if (v !== 'planned' && v !== 'tfjs') throw new Error(`MAOU_WEBGPU_STEP=${v}: expected 'planned' or 'tfjs'`);
  return v;
}

/** What the report's backend step says when a webgpu run trains on the tfjs path, and why it does. */
function tfjsPathSummary(preset: ModelPreset, explicit: boolean): BackendStepSummary {
  return {
    kind: 'webgpu tfjs path (tfjs-backend-webgpu kernels, op by op, several submits per step)',
    dispatches_per_step: null,
    submits_per_step: null,
    host_ms_per_step: null,
    notes: [
      explicit
        ? 'MAOU_WEBGPU_STEP=tfjs chose the tfjs path'
        : `the planned step (one submit per step) builds only the ResNet presets, so --model-architecture ${preset} trains on the tfjs path; MAOU_WEBGPU_STEP=planned refuses it`,
    ],
  };
}

/**
 * Trainers for webgpu (its plug-in's `trainer`): the planned step (one submission per step), or the tfjs path where
 * MAOU_WEBGPU_STEP=tfjs asks for it or the network is a token backbone (the report's backend step says which ran);
 * any other configuration the plan cannot run is refused with the reason, never silently moved to the other path.
 * `--mixed-precision` needs the planned step (only it has an f16 path).
 * @public
 */
export const plannedStepTrainers =
  (single: TrainerFactory): TrainerFactory =>
  (options) => {
    if (webgpuStepChoice(process.env, options.training.preset) !== 'planned') {
      const explicit = process.env.MAOU_WEBGPU_STEP === 'tfjs';
      if (options.training.mixedPrecision)
        throw new Error(
          `--mixed-precision runs only on webgpu's planned step (f16 activations need shader-f16), not on the tfjs path (${explicit ? 'MAOU_WEBGPU_STEP=tfjs' : `--model-architecture ${options.training.preset}`})`,
        );
      const trainer = single(options);
      const summary = tfjsPathSummary(options.training.preset, explicit);
      return Object.assign(trainer, { stepSummary: (): BackendStepSummary => summary }) as Trainer;
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
