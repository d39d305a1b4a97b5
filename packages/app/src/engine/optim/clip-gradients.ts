import * as tf from '@tensorflow/tfjs-core';

/**
 * torch's clip_grad_norm_: scales all gradients by min(1, maxNorm / (‖g‖₂ + 1e-6)), computed on the
 * device (no read back). Returns new tensors; the caller disposes the inputs.
 * @public
 */
export function clipByGlobalNorm(grads: readonly tf.Tensor[], maxNorm: number): tf.Tensor[] {
  return tf.tidy(() => {
    const squares = grads.map((g) => tf.sum(tf.square(g)));
    const norm = tf.sqrt(tf.addN(squares));
    const coef = tf.minimum(tf.div(maxNorm, tf.add(norm, 1e-6)), 1);
    return grads.map((g) => tf.mul(g, coef));
  });
}
