import type * as tf from '@tensorflow/tfjs-core';
import { type Parameter } from '../nn/parameter-store';

/**
 * The part of the network between maou's stem and its heads. It gets the embedded board ids [B, 81, 32] and the
 * projected hands [B, 32] (each backbone places the hand features as maou does) and returns pooled features.
 * @public
 */
export interface Backbone {
  readonly featureChannels: number;
  apply(board: tf.Tensor3D, hand: tf.Tensor2D, training: boolean): tf.Tensor2D;
  /** Multiply-adds per sample of the forward pass. */
  macs(): number;
  /** every parameter of the backbone, in store order */
  readonly parameters: readonly Parameter[];
  /** maou's `get_freezable_groups()`: trailing groups stay trainable under `--trainable-layers`, lowest first */
  readonly groups: readonly (readonly Parameter[])[];
  /** maou's `get_output_norm()`: trainable again whenever any group is */
  readonly outputNorm: readonly Parameter[];
}
