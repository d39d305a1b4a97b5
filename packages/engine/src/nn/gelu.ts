import * as tf from '@tensorflow/tfjs-core';

const INV_SQRT_2PI = 1 / Math.sqrt(2 * Math.PI);

/**
 * Exact (erf) GELU, torch's default, with its derivative Φ(x) + x·φ(x) as one gradient node: the composed
 * form records five elementwise nodes per call, each walked again in backward. Φ(x) is kept from the forward pass,
 * since erf is one of tfjs-wasm's slowest elementwise kernels (scalar).
 * @public
 */
export function gelu<T extends tf.Tensor>(x: T): T {
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
