import * as tf from '@tensorflow/tfjs-core';
import { DROPOUT_MASK_KERNEL, hasKernel } from './fused-kernels';
import { type SeededRandom } from './seeded-random';

/**
 * Where a layer's dropout masks come from: `null` outside training (dropout is the identity), else a seed
 * stream. A recomputed block (gradient checkpointing) replays the seeds it drew, so its masks are the same.
 * @public
 */
export type DropoutSeeds = (() => number) | null;

/** Seeds drawn from `rng`, or null when not training. @public */
export const dropoutSeeds = (rng: SeededRandom, training: boolean): DropoutSeeds =>
  training ? () => Math.floor(rng.next() * 2 ** 31) : null;

/** Wellons' lowbias32 integer hash: unsigned 32-bit in, unsigned 32-bit out. @public */
export function lowbias32(v: number): number {
  let x = v >>> 0;
  x ^= x >>> 16;
  x = Math.imul(x, 0x7feb352d);
  x ^= x >>> 15;
  x = Math.imul(x, 0x846ca68b);
  x ^= x >>> 16;
  return x >>> 0;
}

/**
 * The integers behind one mask: element i is kept where lowbias32(i ^ key) ≥ threshold, i.e. with probability
 * 1 − rate, and scaled by 1/(1 − rate) (inverted dropout), the scale rounded to f32 here so every backend multiplies
 * by the same number.
 * @public
 */
export function dropoutKeep(rate: number, seed: number): { key: number; threshold: number; scale: number } {
  if (!(rate >= 0 && rate < 1)) throw new RangeError(`dropout rate ${rate}: must be in [0, 1)`);
  return {
    key: lowbias32(seed),
    threshold: Math.min(Math.floor(rate * 2 ** 32), 2 ** 32 - 1),
    scale: Math.fround(1 / (1 - rate)),
  };
}

/** The keep-mask of `size` elements on the host, equal to DROPOUT_MASK_KERNEL's. @public */
export function dropoutMask(size: number, rate: number, seed: number): Float32Array {
  const { key, threshold, scale } = dropoutKeep(rate, seed);
  const mask = new Float32Array(size);
  for (let i = 0; i < size; i += 1) if (lowbias32(i ^ key) >= threshold) mask[i] = scale;
  return mask;
}

/**
 * Inverted dropout with rate `rate` (torch's F.dropout); the identity for rate 0 or outside training. The mask comes
 * from a counter-based hash, not tfjs's randomUniform: that draws every number in JS and uploads them, which was most
 * of a ViT step on a GPU (H200, batch 64: 1.8 of 2.7 s). Where the backend has DROPOUT_MASK_KERNEL (webgpu, the fast
 * wasm set) the kernel draws it; elsewhere the host does, the same numbers.
 * @public
 */
export function dropout<T extends tf.Tensor>(x: T, rate: number, seeds: DropoutSeeds): T {
  if (!seeds || rate <= 0) return x;
  const seed = seeds();
  const mask = hasKernel(DROPOUT_MASK_KERNEL)
    ? (tf.engine().runKernel(DROPOUT_MASK_KERNEL, {}, { shape: x.shape, ...dropoutKeep(rate, seed) }) as tf.Tensor)
    : tf.tensor(dropoutMask(x.size, rate, seed), x.shape);
  return tf.mul(x, mask) as T;
}
