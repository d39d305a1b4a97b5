import * as tf from '@tensorflow/tfjs-core';

/**
 * Embedding lookup table[ids]: a gather, whose gradient is a scatter-add (UnsortedSegmentSum) of dy
 * into the table's rows. The engine's gradient registry has no GatherV2 entry, hence the custom gradient.
 * @public
 */
export function embeddingLookup(table: tf.Tensor2D, ids: tf.Tensor1D): tf.Tensor2D {
  const [vocab] = table.shape;
  const lookup = tf.customGrad((t, save) => {
    (save as tf.GradSaveFunc)([ids]);
    return {
      value: tf.gather(t as tf.Tensor2D, ids),
      gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => [tf.unsortedSegmentSum(dy, saved[0] as tf.Tensor1D, vocab)],
    };
  });
  return lookup(table) as tf.Tensor2D;
}
