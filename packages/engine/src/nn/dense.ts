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
    /** a normal weight of this std and a zero bias instead of torch's default (maou's ViT token projection) */
    normalStd?: number,
  ) {
    this.weight =
      normalStd === undefined
        ? store.weight(`${name}.weight`, [inFeatures, outFeatures], inFeatures)
        : store.normal(`${name}.weight`, [inFeatures, outFeatures], normalStd);
    this.bias =
      normalStd === undefined
        ? store.bias(`${name}.bias`, outFeatures, inFeatures)
        : store.zeros(`${name}.bias`, outFeatures);
  }

  apply(x: tf.Tensor2D): tf.Tensor2D {
    return tf.add(tf.matMul(x, this.weight as tf.Tensor2D), this.bias) as tf.Tensor2D;
  }

  macs(): number {
    return this.inFeatures * this.outFeatures;
  }
}
