import * as tf from '@tensorflow/tfjs-core';

/**
 * Embedding lookup table[ids] with a scatter-add gradient. Forward is a gather; the table's gradient is
 * onehot(ids)ᵀ · dy with the one-hot built already transposed ([vocab, N], one broadcast compare), so
 * the product needs no transpose and only the narrow dy is packed. tfjs-wasm has no kernel for
 * gather's own gradient (UnsortedSegmentSum).
 * @public
 */
export function embeddingLookup(table: tf.Tensor2D, ids: tf.Tensor1D): tf.Tensor2D {
  const [vocab] = table.shape;
  const lookup = tf.customGrad((t, save) => {
    (save as tf.GradSaveFunc)([ids]);
    return {
      value: tf.gather(t as tf.Tensor2D, ids),
      gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => {
        const n = saved[0].shape[0];
        const hitsT = tf.cast(tf.equal(tf.reshape(tf.range(0, vocab, 1, 'int32'), [vocab, 1]), tf.reshape(saved[0], [1, n])), 'float32');
        return [tf.matMul(hitsT, dy as tf.Tensor2D)];
      },
    };
  });
  return lookup(table) as tf.Tensor2D;
}
