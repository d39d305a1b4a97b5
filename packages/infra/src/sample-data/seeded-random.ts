import { mulberry32 } from '@maou/bench-domain';

/** The sample data's uniform generator: mulberry32, so generated data depends only on the seed. @internal */
export const seededRandom = mulberry32;

/** A 64-bit FNV-1a style hash of a byte string (the dedup key; cshogi's Zobrist is not reproducible). @internal */
export const hash64 = (bytes: Uint8Array): bigint => {
  let lo = 0x811c9dc5;
  let hi = 0xcbf29ce4;
  for (const b of bytes) {
    lo = Math.imul(lo ^ b, 0x01000193) >>> 0;
    hi = Math.imul(hi ^ b ^ (lo >>> 24), 0x01000193) >>> 0;
  }
  return (BigInt(hi) << 32n) | BigInt(lo);
};
