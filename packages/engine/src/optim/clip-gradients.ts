import * as tf from '@tensorflow/tfjs-core';
import { CLIP_BY_GLOBAL_NORM_KERNEL, hasKernel } from '../nn/fused-kernels';

/**
 * torch's clip_grad_norm_: scales all gradients by min(1, maxNorm / (‖g‖₂ + 1e-6)), computed on the
 * device (no read back). Returns new tensors; the caller disposes the inputs. One MaouClipByGlobalNorm
 * kernel where the backend registered it (else three ops per gradient).
 * @public
 */
export function clipByGlobalNorm(grads: readonly tf.Tensor[], maxNorm: number): tf.Tensor[] {
  if (hasKernel(CLIP_BY_GLOBAL_NORM_KERNEL) && grads.length > 0) {
    const inputs = Object.fromEntries(grads.map((g, i) => [`g${i}`, g]));
    return tf.engine().runKernel(CLIP_BY_GLOBAL_NORM_KERNEL, inputs, { maxNorm }) as tf.Tensor[];
  }
  return tf.tidy(() => {
    const squares = grads.map((g) => tf.sum(tf.square(g)));
    const norm = tf.sqrt(tf.addN(squares));
    const coef = tf.minimum(tf.div(maxNorm, tf.add(norm, 1e-6)), 1);
    return grads.map((g) => tf.mul(g, coef));
  });
}
