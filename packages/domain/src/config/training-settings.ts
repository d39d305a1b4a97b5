import type { LrSchedulerName, ModelPreset, OptimizerName } from './benchmark-config';
import type { Setting } from './setting';

// Loss, optimiser and head values of `benchmark-training`, maou's defaults. Upper bounds are where a value stops being
// a plan and becomes a typo: Infinity loss weights only make NaN losses, 1e12 accumulation steps never run.

const positiveUpTo = (max: number) => ({ min: 0, max, minExclusive: true }) as const;
const share = { min: 0, max: 1, minExclusive: true, maxExclusive: true } as const;
const belowOne = { min: 0, max: 1, maxExclusive: true } as const;

/** `--test-ratio`: the Stage 3 validation share. @public */
export const TEST_RATIO = { flag: '--test-ratio', default: 0.2, bounds: share } as const satisfies Setting;
/** `--stage2-test-ratio`: 0 = no split, as maou HEAD. @public */
export const STAGE2_TEST_RATIO = {
  flag: '--stage2-test-ratio',
  default: 0,
  bounds: belowOne,
} as const satisfies Setting;
/** `--gce-parameter`: accepted for compatibility, unused. @public */
export const GCE_PARAMETER: Setting = { flag: '--gce-parameter', bounds: { min: 0, max: 1, minExclusive: true } };
/** @public */
export const POLICY_LOSS_RATIO = {
  flag: '--policy-loss-ratio',
  default: 1,
  bounds: positiveUpTo(1000),
} as const satisfies Setting;
/** @public */
export const VALUE_LOSS_RATIO = {
  flag: '--value-loss-ratio',
  default: 1,
  bounds: positiveUpTo(1000),
} as const satisfies Setting;
/** `--learning-ratio`: maou's name for the learning rate. @public */
export const LEARNING_RATE = {
  flag: '--learning-ratio',
  default: 0.01,
  bounds: positiveUpTo(10),
} as const satisfies Setting;
/** @public */
export const MOMENTUM = { flag: '--momentum', default: 0.9, bounds: { min: 0, max: 1 } } as const satisfies Setting;
/** @public */
export const WEIGHT_DECAY = {
  flag: '--weight-decay',
  default: 0.01,
  bounds: { min: 0, max: 10 },
} as const satisfies Setting;
/** @public */
export const OPTIMIZER_BETA1 = { flag: '--optimizer-beta1', default: 0.9, bounds: share } as const satisfies Setting;
/** @public */
export const OPTIMIZER_BETA2 = { flag: '--optimizer-beta2', default: 0.999, bounds: share } as const satisfies Setting;
/** @public */
export const OPTIMIZER_EPS = {
  flag: '--optimizer-eps',
  default: 1e-8,
  bounds: positiveUpTo(1),
} as const satisfies Setting;
/** `--gradient-clip`: maou always clips the global L2 norm at 1.0; 0 = off. @public */
export const GRADIENT_CLIP = {
  flag: '--gradient-clip',
  default: 1,
  bounds: { min: 0, max: 1e6 },
} as const satisfies Setting;
/** @public */
export const GRADIENT_ACCUMULATION_STEPS = {
  flag: '--gradient-accumulation-steps',
  default: 1,
  bounds: { min: 1, max: 1024, integer: true },
} as const satisfies Setting;
/** @public */
export const STAGE1_POS_WEIGHT = {
  flag: '--stage1-pos-weight',
  default: 1,
  bounds: positiveUpTo(1e6),
} as const satisfies Setting;
/** @public */
export const STAGE2_POS_WEIGHT = {
  flag: '--stage2-pos-weight',
  default: 1,
  bounds: positiveUpTo(1e6),
} as const satisfies Setting;
/** ASL gamma+. @public */
export const STAGE2_GAMMA_POS = {
  flag: '--stage2-gamma-pos',
  default: 0,
  bounds: { min: 0, max: 100 },
} as const satisfies Setting;
/** ASL gamma-. @public */
export const STAGE2_GAMMA_NEG = {
  flag: '--stage2-gamma-neg',
  default: 0,
  bounds: { min: 0, max: 100 },
} as const satisfies Setting;
/** ASL clip. @public */
export const STAGE2_CLIP = { flag: '--stage2-clip', default: 0, bounds: belowOne } as const satisfies Setting;
/** 0 = a single linear head. @public */
export const STAGE2_HIDDEN_DIM = {
  flag: '--stage2-hidden-dim',
  default: 128,
  bounds: { min: 0, max: 65_536, integer: true },
} as const satisfies Setting;
/** @public */
export const STAGE2_HEAD_DROPOUT = {
  flag: '--stage2-head-dropout',
  default: 0,
  bounds: belowOne,
} as const satisfies Setting;

/** A choice flag's default, with one owner as the numeric settings have. @public */
export interface ChoiceSetting<T extends string> {
  readonly flag: string;
  readonly default: T;
}

/** `--optimizer`: maou's AdamW. @public */
export const OPTIMIZER = { flag: '--optimizer', default: 'adamw' } as const satisfies ChoiceSetting<OptimizerName>;
/** `--lr-scheduler`: maou's warm-up then cosine decay. @public */
export const LR_SCHEDULER = {
  flag: '--lr-scheduler',
  default: 'warmup_cosine_decay',
} as const satisfies ChoiceSetting<LrSchedulerName>;
/** `--model-architecture`: maou's ResNet. @public */
export const MODEL_ARCHITECTURE = {
  flag: '--model-architecture',
  default: 'resnet',
} as const satisfies ChoiceSetting<ModelPreset>;
/** `--trace-path`: where `--enable-profiling` writes its Chrome trace. @public */
export const TRACE_PATH = { flag: '--trace-path', default: 'maou-trace.json' } as const satisfies ChoiceSetting<string>;
