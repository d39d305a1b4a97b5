import * as tf from '@tensorflow/tfjs-core';
import { DROPOUT_MASK_KERNEL, dropoutKeep, dropoutMask } from '@maou/bench-engine';

/**
 * Where a backend's dropout-mask kernel is checked against the engine's host mask: counts 1 and 3 are all tail, 4099
 * ends on a tail and is no multiple of a 64-wide workgroup, seed 2³¹ − 1 is the largest the engine draws, and rate
 * 0.5 puts the threshold at 2³¹, where a signed comparison keeps the wrong half.
 * @public
 */
export const DROPOUT_MASK_CASES: readonly [shape: number[], rate: number, seed: number][] = [
  [[1], 0.1, 0],
  [[3], 0.15, 7],
  [[4099], 0.15, 2 ** 31 - 1],
  [[3, 81, 16], 0.5, 12_345],
];

/** The mask DROPOUT_MASK_KERNEL draws on the active backend, and the engine's host mask for the same case. @public */
export async function kernelAndHostMask(
  shape: number[],
  rate: number,
  seed: number,
): Promise<{ kernel: Float32Array; host: Float32Array }> {
  const t = tf.engine().runKernel(DROPOUT_MASK_KERNEL, {}, { shape, ...dropoutKeep(rate, seed) }) as tf.Tensor;
  try {
    return { kernel: (await t.data()) as Float32Array, host: dropoutMask(t.size, rate, seed) };
  } finally {
    t.dispose();
  }
}
