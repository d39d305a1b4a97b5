import * as tf from '@tensorflow/tfjs-core';

/**
 * Sum over rows of an [N, C] matrix as a [1, C] row. A ones-row matrix product runs on every backend's
 * fast matmul; tfjs-wasm's Sum over a non-innermost axis transposes the whole input first.
 * @public
 */
export function columnSum(x: tf.Tensor2D): tf.Tensor2D {
  return tf.tidy(() => tf.matMul(tf.ones([1, x.shape[0]]), x));
}
