import { isResNetPreset, type TrainingConfig } from '@maou/bench-domain';
import { mixerActivationFloats } from './mlp-mixer-backbone';
import { MIXER_DEFAULTS, VIT_DEFAULTS } from './network-presets';
import { resnetActivationFloats } from './resnet-backbone';
import { vitActivationFloats } from './vit-backbone';

/** The settings that shape the network: its preset and, for a ViT, the `--vit-*` overrides. @public */
export type NetworkChoice = Pick<TrainingConfig, 'preset' | 'vit' | 'gradientCheckpointing'>;

/** Backbone activations per sample (floats): what a training step keeps for its backward pass. @public */
export function activationFloatsPerSample(choice: NetworkChoice): number {
  const { preset } = choice;
  if (isResNetPreset(preset)) return resnetActivationFloats(preset);
  if (preset === 'mlp-mixer') return mixerActivationFloats(MIXER_DEFAULTS);
  return vitActivationFloats({ ...VIT_DEFAULTS, ...choice.vit }, choice.gradientCheckpointing ?? false);
}

// Peak memory of a step per sample, over its convolution outputs in bytes: measured about 2.9 for lite on wasm
// (2,048 rows: 2.9 GB); 4 leaves a margin. Only 3/4 of the heap is planned for activations (weights, optimiser
// state and fragmentation take the rest).
const PEAK_OVER_ACTIVATIONS = 4;
const PLANNED_SHARE = 0.75;

/**
 * Rows per forward/backward pass that fit a heap of `heapBytes` (wasm32: 4 GiB), or undefined when there is no
 * limit. Larger batches run as micro-batches of this size, with their gradients summed.
 * @public
 */
export function heapSafeMicroBatch(choice: NetworkChoice, heapBytes: number | undefined): number | undefined {
  if (heapBytes === undefined) return undefined;
  const bytesPerRow = PEAK_OVER_ACTIVATIONS * 4 * activationFloatsPerSample(choice);
  return Math.max(1, Math.floor((PLANNED_SHARE * heapBytes) / bytesPerRow));
}
