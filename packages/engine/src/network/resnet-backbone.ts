import * as tf from '@tensorflow/tfjs-core';
import { type ResNetPreset } from '@maou/bench-domain';
import { type Parameter, type ParameterStore } from '../nn/parameter-store';
import { type Backbone } from './backbone';
import { BottleneckBlock, EXPANSION } from './bottleneck-block';
import { NETWORK_PRESETS, type NetworkShape, STAGE_STRIDES, STEM } from './network-presets';

/**
 * maou's ResNet backbone, NHWC: the hand projection broadcast over the board beside the 32 embedding channels
 * (64 channels), bottleneck stages, global average pool. Freezable groups: layer1..layer4; no output norm.
 * @public
 */
export class ResNetBackbone implements Backbone {
  readonly featureChannels: number;
  readonly parameters: readonly Parameter[];
  readonly groups: Parameter[][] = [];
  readonly outputNorm: readonly Parameter[] = [];
  private readonly blocks: BottleneckBlock[] = [];

  /** `shape`: a preset's blocks and widths, or a narrower network of the same topology (specs) */
  constructor(store: ParameterStore, shape: NetworkShape) {
    let channels = STEM.embedding + STEM.hand;
    this.parameters = store.collect(() =>
      shape.blocks.forEach((count, stageIndex) => {
        const group = store.collect(() => {
          for (let i = 0; i < count; i++) {
            const stride = i === 0 ? STAGE_STRIDES[stageIndex] : 1;
            const name = `layer${stageIndex + 1}.${i}`;
            const block = new BottleneckBlock(store, name, channels, shape.widths[stageIndex], stride);
            this.blocks.push(block);
            channels = block.outChannels;
          }
        });
        this.groups.push(group);
      }),
    );
    this.featureChannels = channels;
  }

  apply(board: tf.Tensor3D, hand: tf.Tensor2D, training: boolean): tf.Tensor2D {
    const batch = board.shape[0];
    const planes = tf.reshape(board, [batch, 9, 9, STEM.embedding]);
    // Broadcast by adding a zero board: tfjs-wasm's Tile (what broadcastTo runs) took ~15 ms here at batch 128.
    const handPlanes = tf.add(tf.reshape(hand, [batch, 1, 1, STEM.hand]), tf.zeros([1, 9, 9, STEM.hand]));
    let x = tf.concat([planes, handPlanes], 3) as tf.Tensor4D;
    for (const block of this.blocks) x = block.apply(x, training);
    return tf.mean(x, [1, 2]) as tf.Tensor2D;
  }

  macs(): number {
    let h = 9;
    let total = 0;
    for (const block of this.blocks) {
      total += block.macs(h);
      h = block.outSize(h);
    }
    return total;
  }
}

/** Convolution outputs per sample (floats): the activations a ResNet training step keeps for its backward pass. @public */
export function resnetActivationFloats(preset: ResNetPreset): number {
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
