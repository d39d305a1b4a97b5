import * as tf from '@tensorflow/tfjs-core';
import { BOARD_TOKENS, STEM } from './network-presets';

/**
 * The token backbones' input [B, 81, 64]: per square the 32 embedding channels, then the 32 hand features, which
 * maou places only on square (0, 0) (token 0) and leaves zero elsewhere.
 * @public
 */
export function boardTokens(board: tf.Tensor3D, hand: tf.Tensor2D): tf.Tensor3D {
  const batch = board.shape[0];
  const handTokens = tf.concat(
    [tf.reshape(hand, [batch, 1, STEM.hand]), tf.zeros([batch, BOARD_TOKENS - 1, STEM.hand])],
    1,
  );
  return tf.concat([board, handTokens], 2) as tf.Tensor3D;
}

/** Rows [B·T, in] through a layer of 2-D rows. */
export const rows = (x: tf.Tensor, width: number): tf.Tensor2D => tf.reshape(x, [-1, width]) as tf.Tensor2D;
