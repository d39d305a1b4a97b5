import { type ModelPreset } from '@maou/bench-domain';
import { EXPANSION } from './bottleneck-block';
import { NETWORK_PRESETS, STAGE_STRIDES, STEM } from './network-presets';

/** Convolution outputs per sample (floats): the activations a training step keeps for its backward pass. @public */
export function activationFloatsPerSample(preset: ModelPreset): number {
  const shape = NETWORK_PRESETS[preset];
  let h = 9;
  let channels = STEM.embedding + STEM.hand;
  let total = channels * h * h;
  shape.blocks.forEach((count, stage) => {
    const width = shape.widths[stage]!;
    for (let b = 0; b < count; b++) {
      const stride = b === 0 ? STAGE_STRIDES[stage]! : 1;
      const out = Math.floor((h - 1) / stride) + 1;
      const projection = stride !== 1 || channels !== width * EXPANSION;
      // reduce (h×h×w), spatial (o×o×w), expand (o×o×4w), shortcut when projected, and the residual sum
      total += width * h * h + width * out * out + (2 + (projection ? 1 : 0)) * EXPANSION * width * out * out;
      h = out;
      channels = width * EXPANSION;
    }
  });
  return total;
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
export function heapSafeMicroBatch(preset: ModelPreset, heapBytes: number | undefined): number | undefined {
  if (heapBytes === undefined) return undefined;
  const bytesPerRow = PEAK_OVER_ACTIVATIONS * 4 * activationFloatsPerSample(preset);
  return Math.max(1, Math.floor((PLANNED_SHARE * heapBytes) / bytesPerRow));
}
