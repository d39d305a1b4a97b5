// xxHash32 (Yann Collet's public algorithm, as the LZ4 frame format uses it for header, block and content checksums).
const P1 = 2654435761;
const P2 = 2246822519;
const P3 = 3266489917;
const P4 = 668265263;
const P5 = 374761393;

// A module-level binding: inside a vm context (jest) every `Math.imul` is a slow global lookup.
const imul = Math.imul;
const rotl = (x: number, r: number): number => (x << r) | (x >>> (32 - r));
const u32At = (b: Uint8Array, i: number): number =>
  (b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16) | (b[i + 3]! << 24)) >>> 0;
const round = (acc: number, lane: number): number => imul(rotl((acc + imul(lane, P2)) | 0, 13), P1);

/** xxHash32 of `data[start, end)` with `seed`, as an unsigned 32-bit number. @internal */
export const xxhash32 = (data: Uint8Array, start = 0, end = data.length, seed = 0): number => {
  let i = start;
  let h: number;
  if (end - start >= 16) {
    let v1 = (seed + P1 + P2) | 0;
    let v2 = (seed + P2) | 0;
    let v3 = seed | 0;
    let v4 = (seed - P1) | 0;
    for (; i + 16 <= end; i += 16) {
      v1 = round(v1, u32At(data, i));
      v2 = round(v2, u32At(data, i + 4));
      v3 = round(v3, u32At(data, i + 8));
      v4 = round(v4, u32At(data, i + 12));
    }
    h = (rotl(v1, 1) + rotl(v2, 7) + rotl(v3, 12) + rotl(v4, 18)) | 0;
  } else {
    h = (seed + P5) | 0;
  }
  h = (h + (end - start)) | 0;
  for (; i + 4 <= end; i += 4) h = imul(rotl((h + imul(u32At(data, i), P3)) | 0, 17), P4);
  for (; i < end; i++) h = imul(rotl((h + imul(data[i]!, P5)) | 0, 11), P1);
  h ^= h >>> 15;
  h = imul(h, P2);
  h ^= h >>> 13;
  h = imul(h, P3);
  h ^= h >>> 16;
  return h >>> 0;
};
