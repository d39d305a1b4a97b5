import * as tf from '@tensorflow/tfjs-core';

/** `--detect-anomaly`: the first non-finite loss or gradient, with the batch and tensor it was found in. @public */
export class NonFiniteValueError extends Error {
  constructor(
    readonly batchIndex: number,
    readonly tensorName: string,
  ) {
    super(`non-finite value in ${tensorName} at batch ${batchIndex} (--detect-anomaly)`);
    this.name = 'NonFiniteValueError';
  }
}

/** Name of the first tensor holding a NaN or ±Inf, or null; one small read for all tensors. @public */
export async function firstNonFinite(tensors: readonly tf.Tensor[], names: readonly string[]): Promise<string | null> {
  // x·0 is 0 for finite x and NaN for NaN/±Inf, so one sum per tensor flags it.
  const flags = tf.tidy(() => tf.stack(tensors.map((t) => tf.sum(tf.mul(t, 0)))));
  const values = await flags.data();
  flags.dispose();
  const i = values.findIndex((v) => v !== 0);
  return i < 0 ? null : names[i];
}
