import * as tf from '@tensorflow/tfjs-core';
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

/** Inverted dropout with rate `rate` (torch's F.dropout); the identity for rate 0 or outside training. @public */
export function dropout<T extends tf.Tensor>(x: T, rate: number, seeds: DropoutSeeds): T {
  if (!seeds || rate <= 0) return x;
  return tf.dropout(x, rate, undefined, seeds()) as T;
}
