import * as S from '@maou/bench-domain';
import type { RawBenchmarkTrainingOptions } from './raw-options';

type NumericKey = {
  [K in keyof RawBenchmarkTrainingOptions]-?: RawBenchmarkTrainingOptions[K] extends number | undefined ? K : never;
}[keyof RawBenchmarkTrainingOptions];

/** A numeric flag's value and the domain setting that owns its bounds; `why` explains a bound that surprises. */
interface NumericRule {
  readonly key: NumericKey;
  readonly setting: S.Setting;
  readonly why?: string;
}

/** Every numeric range, checked before any data or network is touched; the bounds are the domain settings'. */
export const NUMERIC_RULES: readonly NumericRule[] = [
  { key: 'stage', setting: S.STAGE },
  { key: 'testRatio', setting: S.TEST_RATIO },
  { key: 'batchSize', setting: S.BATCH_SIZE },
  { key: 'dataloaderWorkers', setting: S.LOADER_WORKERS },
  { key: 'prefetchFactor', setting: S.PREFETCH_FACTOR },
  { key: 'devicePrefetch', setting: S.DEVICE_PREFETCH, why: '0 turns device prefetch off' },
  // Each wasm thread is a whole replica (its own heap and copy of the network): past 64 that is a typo, not a plan.
  { key: 'threads', setting: S.THREADS },
  { key: 'gceParameter', setting: S.GCE_PARAMETER },
  { key: 'policyLossRatio', setting: S.POLICY_LOSS_RATIO },
  { key: 'valueLossRatio', setting: S.VALUE_LOSS_RATIO },
  { key: 'learningRatio', setting: S.LEARNING_RATE },
  { key: 'momentum', setting: S.MOMENTUM },
  { key: 'weightDecay', setting: S.WEIGHT_DECAY },
  { key: 'optimizerBeta1', setting: S.OPTIMIZER_BETA1 },
  { key: 'optimizerBeta2', setting: S.OPTIMIZER_BETA2 },
  { key: 'optimizerEps', setting: S.OPTIMIZER_EPS },
  { key: 'gradientClip', setting: S.GRADIENT_CLIP, why: '0 turns clipping off' },
  { key: 'gradientAccumulationSteps', setting: S.GRADIENT_ACCUMULATION_STEPS },
  { key: 'stage1PosWeight', setting: S.STAGE1_POS_WEIGHT },
  { key: 'stage2PosWeight', setting: S.STAGE2_POS_WEIGHT },
  { key: 'stage2GammaPos', setting: S.STAGE2_GAMMA_POS },
  { key: 'stage2GammaNeg', setting: S.STAGE2_GAMMA_NEG },
  { key: 'stage2Clip', setting: S.STAGE2_CLIP },
  { key: 'stage2HiddenDim', setting: S.STAGE2_HIDDEN_DIM, why: '0 = a single linear head' },
  { key: 'stage2HeadDropout', setting: S.STAGE2_HEAD_DROPOUT },
  { key: 'stage2TestRatio', setting: S.STAGE2_TEST_RATIO, why: '0 = no split' },
  { key: 'warmupBatches', setting: S.WARMUP_BATCHES },
  {
    key: 'maxBatches',
    setting: S.MAX_BATCHES,
    why: 'a batch time with an interval needs 2 measured batches; use --full-epoch for a whole epoch',
  },
  { key: 'targetPrecision', setting: S.TARGET_PRECISION, why: '0.05 = ±5 %; 0 never stops early' },
  { key: 'timeBudget', setting: S.TIME_BUDGET, why: 'seconds, at most a week' },
  { key: 'sampleRatio', setting: S.SAMPLE_RATIO },
  { key: 'seed', setting: S.SEED },
];

/** Checks every present numeric option against its setting's bounds; NaN and ±Infinity never pass. */
export const checkNumbers = (raw: RawBenchmarkTrainingOptions): S.ValidationIssue[] =>
  NUMERIC_RULES.flatMap(({ key, setting, why }) => {
    const v = raw[key];
    if (v === undefined) return [];
    const issue = S.checkBoundedNumber(setting.flag, v, setting.bounds);
    return issue ? [{ ...issue, message: why ? `${issue.message} (${why})` : issue.message }] : [];
  });
