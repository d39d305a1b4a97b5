import * as tf from '@tensorflow/tfjs-core';
import { BatchNorm, type BatchNormOptions } from './batch-norm';
import { type ParameterStore } from './parameter-store';

/** Bias-free k×k convolution (NHWC, HWIO weights) followed by batch norm, as maou's conv+BN pairs. @public */
export class ConvBn {
  readonly weight: tf.Variable;
  readonly norm: BatchNorm;

  constructor(
    store: ParameterStore,
    name: string,
    readonly inChannels: number,
    readonly outChannels: number,
    readonly kernel: number,
    readonly stride: number,
  ) {
    this.weight = store.weight(
      `${name}.conv.weight`,
      [kernel, kernel, inChannels, outChannels],
      inChannels * kernel * kernel,
    );
    this.norm = new BatchNorm(store, `${name}.bn`, outChannels);
  }

  /** conv then batch norm; `{ relu: true }` adds the ReLU after it (fused into the batch norm where it can be). */
  apply(x: tf.Tensor4D, training: boolean, options: BatchNormOptions = {}): tf.Tensor4D {
    // 'same' pads 1 on each side for these 3×3 shapes (9→5→3→2), exactly torch's padding=1.
    const pad = this.kernel === 1 ? 'valid' : 'same';
    const y = tf.conv2d(x, this.weight as tf.Tensor4D, this.stride, pad);
    return this.norm.apply(y, training, options);
  }

  /** Output spatial size for an input of size `h`. */
  outSize(h: number): number {
    return Math.floor((h + (this.kernel === 1 ? 0 : 2) - this.kernel) / this.stride) + 1;
  }

  /** Multiply-adds per sample for an input of spatial size `h`. */
  macs(h: number): number {
    const o = this.outSize(h);
    return o * o * this.outChannels * this.inChannels * this.kernel * this.kernel;
  }
}
