/** A deterministic uniform generator in [0, 1) (mulberry32), so sample data depends only on the seed. @internal */
export const seededRandom = (seed: number): (() => number) => {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
};

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
