import { BATCH_SIZE } from './loader-settings';
import type { Setting } from './setting';

// maou's `VisionTransformerConfig` defaults, which `--vit-*` override; widths and layers share --batch-size's ceiling
// (past it a value is a typo, not a plan).
const MAX = BATCH_SIZE.bounds.max;

/** `--vit-embed-dim`: divisible by the heads. @public */
export const VIT_EMBED_DIM = {
  flag: '--vit-embed-dim',
  default: 512,
  bounds: { min: 1, max: MAX, integer: true },
} as const satisfies Setting;
/** @public */
export const VIT_NUM_LAYERS = {
  flag: '--vit-num-layers',
  default: 6,
  bounds: { min: 0, max: MAX, integer: true },
} as const satisfies Setting;
/** @public */
export const VIT_NUM_HEADS = {
  flag: '--vit-num-heads',
  default: 8,
  bounds: { min: 1, max: MAX, integer: true },
} as const satisfies Setting;
/** MLP hidden width over the embedding width. @public */
export const VIT_MLP_RATIO = {
  flag: '--vit-mlp-ratio',
  default: 4,
  bounds: { min: 0, max: 1024, minExclusive: true },
} as const satisfies Setting;
/** Below 1: at 1 every activation is dropped and the kept ones would be scaled by 1/(1 − p). @public */
export const VIT_DROPOUT = {
  flag: '--vit-dropout',
  default: 0.1,
  bounds: { min: 0, max: 1, maxExclusive: true },
} as const satisfies Setting;
/** maou's MLP-Mixer blocks (`ShogiMLPMixer`'s depth; the benchmark passes no override). @public */
export const MIXER_DEPTH = 16;
/** Stages of the ResNet presets (layer1..layer4 in maou). @public */
export const RESNET_STAGES = 4;

/** `--trainable-layers`: trailing backbone groups that still train; absent = all. @public */
export const TRAINABLE_LAYERS: Setting = {
  flag: '--trainable-layers',
  bounds: { min: 0, max: 1_000_000, integer: true },
};

/** `--adaptive-batch-min-steps` (maou HEAD's click range starts at 2; past 1024 is a typo). @public */
export const ADAPTIVE_BATCH_MIN_STEPS = {
  flag: '--adaptive-batch-min-steps',
  default: 2,
  bounds: { min: 2, max: 1024, integer: true },
} as const satisfies Setting;
/** a power of 2 is best: the steps round to powers of 2, then clip to it. @public */
export const ADAPTIVE_BATCH_MAX_STEPS = {
  flag: '--adaptive-batch-max-steps',
  default: 8,
  bounds: { min: 2, max: 1024, integer: true },
} as const satisfies Setting;
/** optimiser steps between adjustments. @public */
export const ADAPTIVE_BATCH_INTERVAL = {
  flag: '--adaptive-batch-interval',
  default: 50,
  bounds: { min: 1, max: 1_000_000, integer: true },
} as const satisfies Setting;
/** EMA factor of the noise-scale estimates. @public */
export const ADAPTIVE_BATCH_SMOOTHING = {
  flag: '--adaptive-batch-smoothing',
  default: 0.1,
  bounds: { min: 0.01, max: 1 },
} as const satisfies Setting;
/** optimiser steps between noise-scale measurements. @public */
export const ADAPTIVE_BATCH_MEASUREMENT_INTERVAL = {
  flag: '--adaptive-batch-measurement-interval',
  default: 5,
  bounds: { min: 1, max: 1_000_000, integer: true },
} as const satisfies Setting;
