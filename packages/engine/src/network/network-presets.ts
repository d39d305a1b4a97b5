import {
  MIXER_DEPTH,
  VIT_DROPOUT,
  VIT_EMBED_DIM,
  VIT_MLP_RATIO,
  VIT_NUM_HEADS,
  VIT_NUM_LAYERS,
  type ResNetPreset,
  type VitSettings,
} from '@maou/bench-domain';

/** Blocks per stage and bottleneck widths of a preset (shared/DESIGN.md "Networks"). @public */
export interface NetworkShape {
  readonly blocks: readonly number[];
  readonly widths: readonly number[];
}

/** Stage strides 1,2,2,2 take the 9×9 board to 9→5→3→2. @public */
export const STAGE_STRIDES: readonly number[] = [1, 2, 2, 2];

/** @public */
export const NETWORK_PRESETS: Readonly<Record<ResNetPreset, NetworkShape>> = {
  lite: { blocks: [2, 2, 2, 1], widths: [24, 48, 96, 144] },
  resnet: { blocks: [2, 2, 2, 2], widths: [64, 128, 256, 512] },
};

/** Board-ID vocabulary, embedding width and hand projection width of maou's stem. @public */
export const STEM = { vocabulary: 256, embedding: 32, hand: 32 } as const;

/** maou's MLP-Mixer shape (`ShogiMLPMixer` defaults; the benchmark passes no overrides). @public */
export interface MixerShape {
  readonly embedDim: number;
  readonly tokenDim: number;
  readonly channelDim: number;
  readonly depth: number;
  readonly dropout: number;
}

/** @public */
export const MIXER_DEFAULTS: MixerShape = {
  embedDim: 256,
  tokenDim: 128,
  channelDim: 1024,
  depth: MIXER_DEPTH,
  dropout: 0.15,
};

/** maou's `VisionTransformerConfig` defaults, which `--vit-*` override. @public */
export const VIT_DEFAULTS: VitSettings = {
  embedDim: VIT_EMBED_DIM.default,
  numLayers: VIT_NUM_LAYERS.default,
  numHeads: VIT_NUM_HEADS.default,
  mlpRatio: VIT_MLP_RATIO.default,
  dropout: VIT_DROPOUT.default,
};

/** Tokens of the token backbones: one per board square. @public */
export const BOARD_TOKENS = 81;
