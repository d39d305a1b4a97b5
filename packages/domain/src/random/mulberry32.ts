/**
 * mulberry32: a small, well-mixed 32-bit generator of uniforms in [0, 1). The same seed gives the same stream on
 * every platform, so shuffles, samples and generated data repeat per seed.
 * @public
 */
export const mulberry32 = (seed: number): (() => number) => {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
};
