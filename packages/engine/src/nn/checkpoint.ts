import * as tf from '@tensorflow/tfjs-core';
import { type DropoutSeeds } from './dropout';

/**
 * Gradient checkpointing (torch.utils.checkpoint): runs `block` keeping only its input; backward runs it again
 * under its own tape and differentiates that. Dropout seeds drawn in the forward pass are replayed, so the
 * recomputed masks are the ones the forward pass used. Parameters get gradients whether or not they train.
 * @public
 */
export function checkpointed(
  block: (x: tf.Tensor2D, seeds: DropoutSeeds) => tf.Tensor2D,
  x: tf.Tensor2D,
  params: readonly tf.Variable[],
  seeds: DropoutSeeds,
): tf.Tensor2D {
  const drawn: number[] = [];
  const recording: DropoutSeeds = seeds && (() => (drawn.push(seeds()), drawn[drawn.length - 1]!));
  const op = tf.customGrad((...args) => {
    const save = args.pop() as tf.GradSaveFunc;
    const input = args[0] as tf.Tensor2D;
    save([input]);
    return {
      value: tf.tidy(() => block(input, recording)),
      gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => {
        let next = 0;
        const replay: DropoutSeeds = seeds && (() => drawn[next++]!);
        const again = saved[0] as tf.Tensor2D;
        const { value, grads } = tf.engine().gradients(() => block(again, replay), [again, ...params], dy, true);
        value.dispose();
        return grads.map((g, i) => g ?? tf.zerosLike(i === 0 ? again : params[i - 1]!));
      },
    };
  });
  return op(x, ...params) as tf.Tensor2D;
}
