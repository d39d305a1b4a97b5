import * as tf from '@tensorflow/tfjs-core';

/**
 * Waits until the backend has produced `t`, by an async read of one element. Kernels run in order,
 * so this also means everything queued before it finished. Async because WebGPU cannot read synchronously.
 * @public
 */
export async function settle(t: tf.Tensor): Promise<void> {
  const one = tf.tidy(() => tf.slice(tf.reshape(t, [-1]), 0, 1));
  await one.data();
  one.dispose();
}
