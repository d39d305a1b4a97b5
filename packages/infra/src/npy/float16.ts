// All 65,536 half-precision values, so decoding is one table lookup per element.
let table: Float32Array | null = null;

const halfToFloat = (h: number): number => {
  const sign = h & 0x8000 ? -1 : 1;
  const exp = (h >> 10) & 0x1f;
  const frac = h & 0x3ff;
  if (exp === 0) return sign * 2 ** -14 * (frac / 1024);
  if (exp === 31) return frac ? NaN : sign * Infinity;
  return sign * 2 ** (exp - 15) * (1 + frac / 1024);
};

/** Decodes little-endian float16 values (`count` of them from `bytes` at `offset`) into `out` at `outPos`. @internal */
export const decodeFloat16 = (
  bytes: Uint8Array,
  offset: number,
  count: number,
  out: Float32Array,
  outPos: number,
): void => {
  if (!table) {
    table = new Float32Array(65536);
    for (let h = 0; h < 65536; h++) table[h] = halfToFloat(h);
  }
  for (let i = 0; i < count; i++)
    out[outPos + i] = table[(bytes[offset + 2 * i] ?? 0) | ((bytes[offset + 2 * i + 1] ?? 0) << 8)] ?? 0;
};

/** Encodes a float as IEEE half precision (round to nearest even), as numpy's astype(float16). @internal */
export const floatToHalf = (value: number): number => {
  const f32 = new Float32Array([value]);
  const x = new Uint32Array(f32.buffer)[0] ?? 0;
  const sign = (x >>> 16) & 0x8000;
  const exp = (x >>> 23) & 0xff;
  let mant = x & 0x7fffff;
  if (exp === 0xff) return sign | 0x7c00 | (mant ? 0x200 : 0);
  const e = exp - 127 + 15;
  if (e >= 31) return sign | 0x7c00;
  if (e <= 0) {
    if (e < -10) return sign;
    mant |= 0x800000;
    const shift = 14 - e;
    let half = mant >> shift;
    const rem = mant & ((1 << shift) - 1);
    const mid = 1 << (shift - 1);
    if (rem > mid || (rem === mid && half & 1)) half++;
    return sign | half;
  }
  let half = (e << 10) | (mant >> 13);
  const rem = mant & 0x1fff;
  if (rem > 0x1000 || (rem === 0x1000 && half & 1)) half++;
  return sign | half;
};
