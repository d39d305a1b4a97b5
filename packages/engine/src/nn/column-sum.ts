import * as tf from '@tensorflow/tfjs-core';

/**
 * Sum over rows of an [N, C] matrix as a [1, C] row. A ones-row matrix product runs on every backend's
 * fast matmul; tfjs-wasm's Sum over a non-innermost axis transposes the whole input first.
 * @public
 */
export function columnSum(x: tf.Tensor2D): tf.Tensor2D {
  return tf.tidy(() => tf.matMul(tf.ones([1, x.shape[0]]), x));
}

/**
 * Per-channel sum of an NHWC activation as [1, C]: an average pool over the whole board (XNNPACK on wasm,
 * about 7× cheaper there than a matmul whose large operand must be re-packed every call), then a small
 * column sum over the batch.
 * @public
 */
export function channelSum(x: tf.Tensor4D): tf.Tensor2D {
  return tf.tidy(() => {
    const [b, h, w, c] = x.shape;
    if (h * w === 1) return columnSum(tf.reshape(x, [b, c]));
    const pooled = tf.reshape(tf.avgPool(x, [h, w], 1, 'valid'), [b, c]) as tf.Tensor2D;
    return tf.mul(columnSum(pooled), h * w) as tf.Tensor2D;
  });
}
