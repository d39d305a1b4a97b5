import * as S from '@maou/bench-domain';
import { TRAINING_DEFAULTS } from '@maou/bench-domain';
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

/** The training block: the choices, the loss and optimiser numbers (else maou's, `TRAINING_DEFAULTS`), the model and adaptive flags. */
export const resolveTraining = (
  raw: Raw,
  stage: Stage,
  choices: TrainingChoices,
  model: ReturnType<typeof checkModelOptions>['fields'],
  adaptive: AdaptiveBatchSettings | undefined,
): TrainingConfig => {
  const d = TRAINING_DEFAULTS;
  return {
    preset: choices.preset,
    optimizer: choices.optimizer,
    learningRate: raw.learningRatio ?? d.learningRate,
    momentum: raw.momentum ?? d.momentum,
    beta1: raw.optimizerBeta1 ?? d.beta1,
    beta2: raw.optimizerBeta2 ?? d.beta2,
    eps: raw.optimizerEps ?? d.eps,
    weightDecay: raw.weightDecay ?? d.weightDecay,
    lrScheduler: stage === 3 ? choices.lrScheduler : choices.stage12LrScheduler,
    policyLossRatio: raw.policyLossRatio ?? d.policyLossRatio,
    // as given at every stage, as maou echoes it; the Stage 1/2 objectives have no value head and never read it
    valueLossRatio: raw.valueLossRatio ?? d.valueLossRatio,
    // maou clips the global L2 norm at 1.0 on every optimiser step, with no flag to turn it off
    gradientClip: raw.gradientClip ?? d.gradientClip,
    // maou starts an adaptive run at its min steps, whatever --gradient-accumulation-steps says
    gradientAccumulationSteps: adaptive?.minSteps ?? raw.gradientAccumulationSteps ?? d.gradientAccumulationSteps,
    ...(adaptive ? { adaptiveBatch: adaptive } : {}),
    detectAnomaly: raw.detectAnomaly ?? d.detectAnomaly,
    stage1PosWeight: raw.stage1PosWeight ?? d.stage1PosWeight,
    stage2PosWeight: raw.stage2PosWeight ?? d.stage2PosWeight,
    stage2GammaPos: raw.stage2GammaPos ?? d.stage2GammaPos,
    stage2GammaNeg: raw.stage2GammaNeg ?? d.stage2GammaNeg,
    stage2Clip: raw.stage2Clip ?? d.stage2Clip,
    stage2HiddenDim: raw.stage2HiddenDim ?? d.stage2HiddenDim,
    stage2HeadDropout: raw.stage2HeadDropout ?? d.stage2HeadDropout,
    mixedPrecision: raw.mixedPrecision ?? false,
    ...model,
  };
};
