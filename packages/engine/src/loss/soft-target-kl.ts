import * as tf from '@tensorflow/tfjs-core';

/**
 * Σ_k t·(log t − log_softmax(z)) summed over rows, with the target entropy term supplied by the caller
 * (computed on the host: it has no gradient). The gradient is the closed form (softmax(z)·Σt − t)·dy,
 * one pass instead of tfjs's log-softmax chain.
 * @public
 */
export const softTargetCrossEntropySum = tf.customGrad((logits, target, save) => {
  const z = logits as tf.Tensor2D;
  const t = target as tf.Tensor2D;
  const lse = tf.logSumExp(z, 1, true);
  const rowMass = tf.sum(t, 1, true);
  // Σ_k t·(lse − z) = lse·Σt − Σ t·z
  const value = tf.sum(tf.sub(tf.mul(lse, rowMass), tf.sum(tf.mul(t, z), 1, true)));
  (save as tf.GradSaveFunc)([z, t, lse, rowMass]);
  return {
    value,
    gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => {
      const [zs, ts, l, mass] = saved;
      const softmax = tf.exp(tf.sub(zs, l));
      const dz = tf.mul(tf.sub(tf.mul(softmax, mass), ts), dy);
      return [dz, tf.zerosLike(ts)];
    },
  };
});
