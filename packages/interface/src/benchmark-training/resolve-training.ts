import * as S from '@maou/bench-domain';
import type {
  AdaptiveBatchSettings,
  LrSchedulerName,
  ModelPreset,
  OptimizerName,
  Stage,
  TrainingConfig,
  ValidationIssue,
} from '@maou/bench-domain';
import { parseArchitecture, parseOptimizer, parseScheduler, take } from './choices';
import type { checkModelOptions } from './model-options';
import type { RawBenchmarkTrainingOptions as Raw } from './raw-options';

/** The training choices named by a word: backbone, optimiser and the schedulers. */
export interface TrainingChoices {
  readonly preset: ModelPreset;
  readonly optimizer: OptimizerName;
  readonly lrScheduler: LrSchedulerName;
  readonly stage12LrScheduler: LrSchedulerName;
}

/** `--model-architecture`, `--optimizer`, `--lr-scheduler` and `--stage12-lr-scheduler`; a bad one adds its issue. */
export const resolveTrainingChoices = (raw: Raw, issues: ValidationIssue[]): TrainingChoices => {
  const preset = take(
    parseArchitecture(raw.modelArchitecture ?? S.MODEL_ARCHITECTURE.default),
    issues,
    S.MODEL_ARCHITECTURE.default,
  );
  const optimizer = take(parseOptimizer(raw.optimizer ?? S.OPTIMIZER.default), issues, S.OPTIMIZER.default);
  const lrScheduler = take(parseScheduler('--lr-scheduler', raw.lrScheduler ?? S.LR_SCHEDULER.default), issues, 'none');
  const stage12LrScheduler =
    raw.stage12LrScheduler === undefined
      ? lrScheduler
      : take(parseScheduler('--stage12-lr-scheduler', raw.stage12LrScheduler), issues, 'none');
  return { preset, optimizer, lrScheduler, stage12LrScheduler };
};

/** The training block: the choices, the loss and optimiser numbers (maou's defaults), the model and adaptive flags. */
export const resolveTraining = (
  raw: Raw,
  stage: Stage,
  choices: TrainingChoices,
  model: ReturnType<typeof checkModelOptions>['fields'],
  adaptive: AdaptiveBatchSettings | undefined,
): TrainingConfig => ({
  preset: choices.preset,
  optimizer: choices.optimizer,
  learningRate: raw.learningRatio ?? S.LEARNING_RATE.default,
  momentum: raw.momentum ?? S.MOMENTUM.default,
  beta1: raw.optimizerBeta1 ?? S.OPTIMIZER_BETA1.default,
  beta2: raw.optimizerBeta2 ?? S.OPTIMIZER_BETA2.default,
  eps: raw.optimizerEps ?? S.OPTIMIZER_EPS.default,
  weightDecay: raw.weightDecay ?? S.WEIGHT_DECAY.default,
  lrScheduler: stage === 3 ? choices.lrScheduler : choices.stage12LrScheduler,
  policyLossRatio: raw.policyLossRatio ?? S.POLICY_LOSS_RATIO.default,
  // as given at every stage, as maou echoes it; the Stage 1/2 objectives have no value head and never read it
  valueLossRatio: raw.valueLossRatio ?? S.VALUE_LOSS_RATIO.default,
  // maou clips the global L2 norm at 1.0 on every optimiser step, with no flag to turn it off
  gradientClip: raw.gradientClip ?? S.GRADIENT_CLIP.default,
  // maou starts an adaptive run at its min steps, whatever --gradient-accumulation-steps says
  gradientAccumulationSteps:
    adaptive?.minSteps ?? raw.gradientAccumulationSteps ?? S.GRADIENT_ACCUMULATION_STEPS.default,
  ...(adaptive ? { adaptiveBatch: adaptive } : {}),
  detectAnomaly: raw.detectAnomaly ?? false,
  stage1PosWeight: raw.stage1PosWeight ?? S.STAGE1_POS_WEIGHT.default,
  stage2PosWeight: raw.stage2PosWeight ?? S.STAGE2_POS_WEIGHT.default,
  stage2GammaPos: raw.stage2GammaPos ?? S.STAGE2_GAMMA_POS.default,
  stage2GammaNeg: raw.stage2GammaNeg ?? S.STAGE2_GAMMA_NEG.default,
  stage2Clip: raw.stage2Clip ?? S.STAGE2_CLIP.default,
  stage2HiddenDim: raw.stage2HiddenDim ?? S.STAGE2_HIDDEN_DIM.default,
  stage2HeadDropout: raw.stage2HeadDropout ?? S.STAGE2_HEAD_DROPOUT.default,
  mixedPrecision: raw.mixedPrecision ?? false,
  ...model,
});
