import type { TrainingConfig } from './benchmark-config';
import * as S from './training-settings';

/**
 * The training block with nothing given: maou's defaults from the settings table, the one list the options fall back
 * to and that specs and scripts start from (overriding only what they mean to change).
 * @public
 */
export const TRAINING_DEFAULTS: TrainingConfig = {
  preset: S.MODEL_ARCHITECTURE.default,
  optimizer: S.OPTIMIZER.default,
  learningRate: S.LEARNING_RATE.default,
  momentum: S.MOMENTUM.default,
  beta1: S.OPTIMIZER_BETA1.default,
  beta2: S.OPTIMIZER_BETA2.default,
  eps: S.OPTIMIZER_EPS.default,
  weightDecay: S.WEIGHT_DECAY.default,
  lrScheduler: S.LR_SCHEDULER.default,
  policyLossRatio: S.POLICY_LOSS_RATIO.default,
  valueLossRatio: S.VALUE_LOSS_RATIO.default,
  gradientClip: S.GRADIENT_CLIP.default,
  gradientAccumulationSteps: S.GRADIENT_ACCUMULATION_STEPS.default,
  detectAnomaly: false,
  stage1PosWeight: S.STAGE1_POS_WEIGHT.default,
  stage2PosWeight: S.STAGE2_POS_WEIGHT.default,
  stage2GammaPos: S.STAGE2_GAMMA_POS.default,
  stage2GammaNeg: S.STAGE2_GAMMA_NEG.default,
  stage2Clip: S.STAGE2_CLIP.default,
  stage2HiddenDim: S.STAGE2_HIDDEN_DIM.default,
  stage2HeadDropout: S.STAGE2_HEAD_DROPOUT.default,
};
