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
    const norm = tf.sqrt(globalSquaredNorm(grads));
    const coef = tf.minimum(tf.div(maxNorm, tf.add(norm, 1e-6)), 1);
    return grads.map((g) => tf.mul(g, coef));
  });
}

/** WebGPU's default limit is 8 storage buffers per shader stage, the output included: at most 7 inputs per addN. */
const ADD_GROUP = 7;

/**
 * Σ‖g‖² over every gradient, on the device. One addN of them all would bind one buffer per gradient, which WebGPU
 * refuses beyond its storage-buffer limit (83 gradients for lite), so the squares are added in groups, level by level.
 * @public
 */
export function globalSquaredNorm(grads: readonly tf.Tensor[]): tf.Scalar {
  return tf.tidy(() => {
    let parts: tf.Tensor[] = grads.map((g) => tf.sum(tf.square(g)));
    if (parts.length === 0) return tf.scalar(0);
    while (parts.length > 1) {
      const next: tf.Tensor[] = [];
      for (let i = 0; i < parts.length; i += ADD_GROUP) {
        const group = parts.slice(i, i + ADD_GROUP);
        next.push(group.length === 1 ? group[0]! : tf.addN(group));
      }
      parts = next;
    }
    return parts[0] as tf.Scalar;
  });
}
