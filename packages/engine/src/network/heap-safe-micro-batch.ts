import { HAND_KINDS, isResNetPreset, MOVE_LABELS, type ResNetPreset, type TrainingConfig } from '@maou/bench-domain';
import { EXPANSION } from './bottleneck-block';
import { mixerActivationFloats } from './mlp-mixer-backbone';
import { BOARD_TOKENS, MIXER_DEFAULTS, NETWORK_PRESETS, STAGE_STRIDES, STEM, VIT_DEFAULTS } from './network-presets';
import { resnetActivationFloats } from './resnet-backbone';
import { vitActivationFloats } from './vit-backbone';

/** The settings that shape the network: its preset and, for a ViT, the `--vit-*` overrides. @public */
export type NetworkChoice = Pick<TrainingConfig, 'preset' | 'vit' | 'gradientCheckpointing'> &
  Partial<Pick<TrainingConfig, 'optimizer'>>;

/** Backbone activations per sample (floats): what a training step keeps for its backward pass. @public */
export function activationFloatsPerSample(choice: NetworkChoice): number {
  const { preset } = choice;
  if (isResNetPreset(preset)) return resnetActivationFloats(preset);
  if (preset === 'mlp-mixer') return mixerActivationFloats(MIXER_DEFAULTS);
  return vitActivationFloats({ ...VIT_DEFAULTS, ...choice.vit }, choice.gradientCheckpointing ?? false);
}

// Peak memory of a step per sample, over its convolution outputs in bytes: measured about 2.9 for lite on wasm
// (2,048 rows: 2.9 GB); 4 leaves a margin. Only 3/4 of the heap is planned for activations (weights, optimiser
// state and fragmentation take the rest, or more when the network's own state is larger).
const PEAK_OVER_ACTIVATIONS = 4;
const PLANNED_SHARE = 0.75;
/** tfjs keeps each tensor in one typed array, which V8 caps at 2^32 values. */
const MAX_TENSOR_VALUES = 2 ** 32;

const dense = (i: number, o: number): number => i * o + o;
const layerNorm = (d: number): number => 2 * d;
const resnetParameters = (preset: ResNetPreset): number => {
  const { blocks, widths } = NETWORK_PRESETS[preset];
  let channels = STEM.embedding + STEM.hand;
  let n = 0;
  blocks.forEach((count, stage) => {
    const w = widths[stage]!;
    for (let b = 0; b < count; b++) {
      const projected = (b === 0 && STAGE_STRIDES[stage] !== 1) || channels !== w * EXPANSION;
      // 1×1 reduce, 3×3, 1×1 expand and the projection shortcut, each a bias-free conv and a batch norm
      n += channels * w + 2 * w + 9 * w * w + 2 * w + w * w * EXPANSION + 2 * w * EXPANSION;
      if (projected) n += channels * w * EXPANSION + 2 * w * EXPANSION;
      channels = w * EXPANSION;
    }
  });
  return n;
};

/** The largest tensors of one training step: a parameter, and an activation per row. */
interface Largest {
  readonly name: string;
  readonly values: number;
}

/**
 * What a network's training needs in memory, before any batch: parameters (stem, backbone and Stage 3's heads, the
 * largest), the bytes they hold through a step (weights, gradients and the optimiser's state: AdamW's two moments,
 * SGD's momentum), the bytes each row of a batch adds (its activations, with the peak's margin), and the largest
 * single tensors.
 * @public
 */
export interface TrainingMemory {
  readonly parameters: number;
  readonly fixedBytes: number;
  readonly bytesPerRow: number;
  readonly largestParameter: Largest;
  readonly largestActivationPerRow: Largest;
}

/** The one estimate of a network's training memory (the micro-batch planner and the up-front refusal read it). @public */
export function trainingMemory(choice: NetworkChoice): TrainingMemory {
  const { preset } = choice;
  const stem = STEM.vocabulary * STEM.embedding + dense(HAND_KINDS, STEM.hand);
  let backbone: number;
  let features: number;
  let largestParameter: Largest;
  let largestActivationPerRow: Largest;
  if (isResNetPreset(preset)) {
    const { widths } = NETWORK_PRESETS[preset];
    const w = widths[widths.length - 1]!;
    backbone = resnetParameters(preset);
    features = w * EXPANSION;
    largestParameter = { name: 'the last 3×3 convolution', values: 9 * w * w };
    largestActivationPerRow = { name: 'the first stage', values: 81 * widths[0]! * EXPANSION };
  } else if (preset === 'mlp-mixer') {
    const { embedDim: e, tokenDim, channelDim, depth } = MIXER_DEFAULTS;
    const block = 2 * layerNorm(e) + dense(BOARD_TOKENS, tokenDim) + dense(tokenDim, BOARD_TOKENS);
    backbone =
      layerNorm(STEM.embedding + STEM.hand) +
      dense(STEM.embedding + STEM.hand, e) +
      layerNorm(e) +
      depth * (block + dense(e, channelDim) + dense(channelDim, e));
    features = e;
    largestParameter = { name: 'a channel MLP layer', values: e * channelDim };
    largestActivationPerRow = { name: 'a channel MLP hidden layer', values: BOARD_TOKENS * channelDim };
  } else {
    const { embedDim: d, numLayers, numHeads, mlpRatio } = { ...VIT_DEFAULTS, ...choice.vit };
    const h = Math.trunc(d * mlpRatio);
    const block = 2 * layerNorm(d) + dense(d, 3 * d) + dense(d, d) + dense(d, h) + dense(h, d);
    backbone = dense(STEM.embedding + STEM.hand, d) + BOARD_TOKENS * d + numLayers * block + layerNorm(d);
    features = d;
    largestParameter =
      h > 3 * d
        ? { name: 'an encoder MLP weight', values: d * h }
        : { name: "the attention's qkv weight", values: 3 * d * d };
    const scores = numHeads * BOARD_TOKENS * BOARD_TOKENS;
    const hidden = BOARD_TOKENS * Math.max(h, 3 * d);
    largestActivationPerRow =
      scores > hidden
        ? { name: 'the attention scores', values: scores }
        : { name: h > 3 * d ? 'an encoder MLP hidden layer' : "the attention's qkv", values: hidden };
  }
  const parameters = stem + backbone + dense(features, MOVE_LABELS) + dense(features, 1);
  const bytesPerParameter = 4 * (2 + (choice.optimizer === 'sgd' ? 1 : 2));
  return {
    parameters,
    fixedBytes: parameters * bytesPerParameter,
    bytesPerRow: PEAK_OVER_ACTIVATIONS * 4 * activationFloatsPerSample(choice),
    largestParameter,
    largestActivationPerRow,
  };
}

/**
 * Rows per forward/backward pass that fit a heap of `heapBytes` (wasm32: 4 GiB), or undefined when there is no
 * limit. Larger batches run as micro-batches of this size, with their gradients summed. At least 1: whether one row
 * fits at all is {@link networkMemoryRefusal}'s question.
 * @public
 */
export function heapSafeMicroBatch(choice: NetworkChoice, heapBytes: number | undefined): number | undefined {
  if (heapBytes === undefined) return undefined;
  const { fixedBytes, bytesPerRow } = trainingMemory(choice);
  return Math.max(1, Math.floor(Math.min(PLANNED_SHARE * heapBytes, heapBytes - fixedBytes) / bytesPerRow));
}

const GIB = 2 ** 30;
const gib = (bytes: number): string => `${(bytes / GIB).toFixed(1)} GiB`;
const count = (n: number): string => n.toLocaleString('en-US');

/** The flags that shaped this network, for messages: `--model-architecture vit --vit-mlp-ratio 1024`. */
const shapingFlags = (choice: NetworkChoice): string => {
  const vit = Object.entries(choice.vit ?? {}).map(
    ([k, v]) => `--vit-${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} ${String(v)}`,
  );
  return [`--model-architecture ${choice.preset}`, ...(choice.preset === 'vit' ? vit : [])].join(' ');
};

/**
 * Why this network cannot train here, before any work, or null: a tensor larger than a typed array holds (any
 * backend), or weights, gradients, optimiser state and one row's activations beyond a bounded heap (`heapBytes`,
 * wasm32's per-instance heap; `heapName` says whose). The message names the flags and the figures.
 * @public
 */
export function networkMemoryRefusal(
  choice: NetworkChoice,
  heapBytes: number | undefined,
  heapName = 'heap',
): string | null {
  const m = trainingMemory(choice);
  const flags = shapingFlags(choice);
  const lower =
    choice.preset === 'vit'
      ? 'lower --vit-embed-dim, --vit-mlp-ratio or --vit-num-layers'
      : 'use a smaller --model-architecture';
  for (const t of [
    m.largestParameter,
    { ...m.largestActivationPerRow, name: `${m.largestActivationPerRow.name} of one row` },
  ])
    if (t.values > MAX_TENSOR_VALUES)
      return `${flags}: ${t.name} would hold ${count(t.values)} values, and a tensor holds at most ${count(MAX_TENSOR_VALUES)} (2^32, one typed array): ${lower}`;
  if (heapBytes !== undefined && m.fixedBytes + m.bytesPerRow > heapBytes)
    return `${flags}: ${count(m.parameters)} parameters need ${gib(m.fixedBytes)} for weights, gradients and ${choice.optimizer === 'sgd' ? "SGD's momentum" : "AdamW's two moments"}, and one row's activations ${gib(m.bytesPerRow)} more; the ${heapName} holds ${gib(heapBytes)}: ${lower}`;
  return null;
}
