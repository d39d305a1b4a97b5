import * as tf from '@tensorflow/tfjs-core';

/** Sums a broadcast gradient back to `shape` (the input's shape before broadcasting). @public */
export function reduceToShape(dx: tf.Tensor, shape: readonly number[]): tf.Tensor {
  if (dx.shape.length === shape.length && dx.shape.every((d, i) => d === shape[i])) return dx;
  const lead = dx.rank - shape.length;
  const axes: number[] = [];
  for (let i = 0; i < dx.rank; i++) {
    const j = i - lead;
    if (j < 0 || (shape[j] === 1 && dx.shape[i] !== 1)) axes.push(i);
  }
  const last = dx.shape[dx.rank - 1];
  // All leading axes summed, innermost kept: a ones-row matmul (wasm's Sum over leading axes transposes).
  if (axes.length === dx.rank - 1 && axes.every((a, i) => a === i) && last > 1) {
    return tf.reshape(tf.matMul(tf.ones([1, dx.size / last]), tf.reshape(dx, [-1, last])), shape as number[]);
  }
  return tf.reshape(tf.sum(dx, axes), shape as number[]);
}
