import { mulberry32 } from '@maou/bench-domain';

// Mixes several integers into one 32-bit seed so (seed, epoch, file) triples do not collide.
export const mixSeed = (...parts: readonly number[]): number => {
  let h = 0x811c9dc5;
  for (const p of parts) {
    h = Math.imul(h ^ (p >>> 0), 0x01000193) >>> 0;
    h = Math.imul(h ^ (h >>> 13), 0x5bd1e995) >>> 0;
  }
  return h >>> 0;
};

/** A seeded Fisher-Yates permutation of 0..n-1. @internal */
export const seededPermutation = (n: number, seed: number): Uint32Array => {
  const out = new Uint32Array(n);
  for (let i = 0; i < n; i++) out[i] = i;
  const rand = mulberry32(seed);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    const t = out[i]!;
    out[i] = out[j]!;
    out[j] = t;
  }
  return out;
};
