import * as tf from '@tensorflow/tfjs-core';
import { ConvBn } from '../nn/conv-bn';
import { type ParameterStore } from '../nn/parameter-store';

/** Expansion of the bottleneck: output channels are 4× the width. @public */
export const EXPANSION = 4;

const RELU = { relu: true };

/**
 * ResNet v1.5 bottleneck (1×1 → 3×3 with the stride → 1×1), BN after each conv, ReLU after the first two
 * and after the residual add; a projection shortcut (1×1 conv with stride + BN) when stride or width change.
 * @public
 */
export class BottleneckBlock {
  private readonly reduce: ConvBn;
  private readonly spatial: ConvBn;
  private readonly expand: ConvBn;
  private readonly shortcut: ConvBn | null;
  readonly outChannels: number;

  constructor(store: ParameterStore, name: string, inChannels: number, width: number, stride: number) {
    this.outChannels = width * EXPANSION;
    this.reduce = new ConvBn(store, `${name}.1`, inChannels, width, 1, 1);
    this.spatial = new ConvBn(store, `${name}.2`, width, width, 3, stride);
    this.expand = new ConvBn(store, `${name}.3`, width, this.outChannels, 1, 1);
    this.shortcut =
      stride !== 1 || inChannels !== this.outChannels
        ? new ConvBn(store, `${name}.shortcut`, inChannels, this.outChannels, 1, stride)
        : null;
  }

  apply(x: tf.Tensor4D, training: boolean): tf.Tensor4D {
    const a = this.reduce.apply(x, training, RELU);
    const b = this.spatial.apply(a, training, RELU);
    const c = this.expand.apply(b, training);
    const s = this.shortcut ? this.shortcut.apply(x, training) : x;
    return tf.relu(tf.add(c, s)) as tf.Tensor4D;
  }

  outSize(h: number): number {
    return this.spatial.outSize(h);
  }

  macs(h: number): number {
    const o = this.outSize(h);
    return this.reduce.macs(h) + this.spatial.macs(h) + this.expand.macs(o) + (this.shortcut?.macs(h) ?? 0);
  }
}
