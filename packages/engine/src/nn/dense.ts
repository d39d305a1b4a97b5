import * as tf from '@tensorflow/tfjs-core';
import { type ParameterStore } from './parameter-store';

/** Fully connected layer with bias, weights stored [in, out]. @public */
export class Dense {
  readonly weight: tf.Variable;
  readonly bias: tf.Variable;

  constructor(
    store: ParameterStore,
    name: string,
    readonly inFeatures: number,
    readonly outFeatures: number,
  ) {
    this.weight = store.weight(`${name}.weight`, [inFeatures, outFeatures], inFeatures);
    this.bias = store.bias(`${name}.bias`, outFeatures, inFeatures);
  }

  apply(x: tf.Tensor2D): tf.Tensor2D {
    return tf.add(tf.matMul(x, this.weight as tf.Tensor2D), this.bias) as tf.Tensor2D;
  }

  macs(): number {
    return this.inFeatures * this.outFeatures;
  }
}
