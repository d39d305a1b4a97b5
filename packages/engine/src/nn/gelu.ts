import * as tf from '@tensorflow/tfjs-core';
import { GELU_GRAD_KERNEL, GELU_KERNEL, hasKernel } from './fused-kernels';

const INV_SQRT_2PI = 1 / Math.sqrt(2 * Math.PI);

/**
 * Exact (erf) GELU, torch's default, with its derivative Φ(x) + x·φ(x) as one gradient node: the composed
 * form records five elementwise nodes per call, each walked again in backward. Φ(x) is kept from the forward pass,
 * since erf is one of tfjs-wasm's slowest elementwise kernels (scalar). Where the backend registers the fused
 * GELU kernels (the fast wasm set, webgpu), forward and gradient are one kernel each.
 * @public
 */
export function gelu<T extends tf.Tensor>(x: T): T {
  if (hasKernel(GELU_KERNEL) && hasKernel(GELU_GRAD_KERNEL)) return fusedGelu(x) as T;
  const op = tf.customGrad((input, save) => {
    const v = input as tf.Tensor;
    const cdf = tf.mul(tf.add(tf.erf(tf.mul(v, Math.SQRT1_2)), 1), 0.5);
    (save as tf.GradSaveFunc)([v, cdf]);
    return {
      value: tf.mul(v, cdf),
      gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => {
        const [s, phi] = saved;
        const pdf = tf.mul(tf.exp(tf.mul(tf.square(s), -0.5)), INV_SQRT_2PI);
        return [tf.mul(dy, tf.add(phi, tf.mul(s, pdf)))];
      },
    };
  });
  return op(x) as T;
}

const fusedGelu = tf.customGrad((input, save) => {
  const x = input as tf.Tensor;
  const [y, cdf] = tf.engine().runKernel(GELU_KERNEL, { x }) as tf.Tensor[];
  (save as tf.GradSaveFunc)([x, cdf]);
  return {
    value: y,
    gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => [
      tf.engine().runKernel(GELU_GRAD_KERNEL, { dy, x: saved[0], cdf: saved[1] }) as tf.Tensor,
    ],
  };
});
