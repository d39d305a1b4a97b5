import * as tf from '@tensorflow/tfjs-core';

/**
 * Runs `f` without recording its kernels on the gradient tape, as one opaque node fed by `inputs` (host data, never
 * a trainable parameter): for layers that are all frozen, whose activations backward would never read. The node's
 * gradient is never asked for, since nothing trainable flows into it.
 * @public
 */
export function offTape<T extends tf.Tensor>(f: () => T, inputs: readonly tf.Tensor[]): T {
  // Kernels run inside a custom-gradient forward are not taped (tfjs records only the outer node).
  const op = tf.customGrad((...args) => {
    args.pop();
    return {
      value: f(),
      gradFunc: () => {
        throw new Error('offTape: no gradient flows into frozen layers');
      },
    };
  });
  return op(...inputs) as T;
}
