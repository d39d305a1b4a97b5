import { compress as lz4jsCompress } from 'lz4js';

const MAGIC = 0x184d2204;
const SKIPPABLE_MASK = 0xfffffff0;
const SKIPPABLE = 0x184d2a50;
const BLOCK_MAX = [0, 0, 0, 0, 64 << 10, 256 << 10, 1 << 20, 4 << 20];

/** A malformed LZ4 frame; `byteOffset` is relative to the start of the compressed buffer. @public */
export class Lz4FormatError extends Error {
  constructor(readonly byteOffset: number, message: string) {
    super(`LZ4 frame, byte ${byteOffset}: ${message}`);
    this.name = 'Lz4FormatError';
  }
}

const u32 = (s: Uint8Array, i: number): number => {
  if (i + 4 > s.length) throw new Lz4FormatError(i, 'truncated (needed 4 more bytes)');
  return ((s[i] ?? 0) | ((s[i + 1] ?? 0) << 8) | ((s[i + 2] ?? 0) << 16) | ((s[i + 3] ?? 0) << 24)) >>> 0;
};

/** Copies an LZ4 match; overlapping (periodic) matches are copied in doubling chunks, not byte by byte. */
const copyMatch = (dst: Uint8Array, d: number, offset: number, len: number): void => {
  const src = d - offset;
  if (offset >= len) { dst.copyWithin(d, src, src + len); return; }
  // [src, d + done) always holds whole periods, so it can be the source of the next chunk.
  for (let done = 0; done < len;) {
    const n = Math.min(offset + done, len - done);
    dst.copyWithin(d + done, src, src + n);
    done += n;
  }
};

/** Decodes one LZ4 block from `src[start, end)` into `dst` at `d`; returns the new `d`. Bounds-checked. */
const decodeBlock = (src: Uint8Array, start: number, end: number, dst: Uint8Array, d: number): number => {
  let s = start;
  while (s < end) {
    const token = src[s++] ?? 0;
    let lit = token >>> 4;
    if (lit === 15) for (let b = 255; b === 255 && s < end; lit += b) b = src[s++] ?? 0;
    if (s + lit > end || d + lit > dst.length) throw new Lz4FormatError(s, `literal run of ${lit} bytes overruns the block`);
    dst.set(src.subarray(s, s + lit), d);
    s += lit;
    d += lit;
    if (s >= end) break;
    if (s + 2 > end) throw new Lz4FormatError(s, 'truncated match offset');
    const offset = (src[s] ?? 0) | ((src[s + 1] ?? 0) << 8);
    s += 2;
    let len = (token & 15) + 4;
    if ((token & 15) === 15) for (let b = 255; b === 255 && s < end; len += b) b = src[s++] ?? 0;
    if (offset === 0 || offset > d) throw new Lz4FormatError(s - 2, `match offset ${offset} points before the output start`);
    if (d + len > dst.length) throw new Lz4FormatError(s, `match of ${len} bytes overruns the output`);
    copyMatch(dst, d, offset, len);
    d += len;
  }
  return d;
};

interface FrameBlock { readonly start: number; readonly size: number; readonly raw: boolean; readonly max: number }

/** Walks the headers of all concatenated frames; returns the blocks and an output bound. */
const scanFrames = (src: Uint8Array): { blocks: FrameBlock[]; bound: number } => {
  const blocks: FrameBlock[] = [];
  let s = 0;
  let bound = 0;
  while (s < src.length) {
    const magic = u32(src, s);
    if ((magic & SKIPPABLE_MASK) >>> 0 === SKIPPABLE) { s += 8 + u32(src, s + 4); continue; }
    if (magic !== MAGIC) throw new Lz4FormatError(s, `bad magic 0x${magic.toString(16)}`);
    const flg = src[s + 4] ?? 0;
    const bd = src[s + 5] ?? 0;
    if ((flg >> 6) !== 1) throw new Lz4FormatError(s + 4, `unsupported frame version ${flg >> 6}`);
    const max = BLOCK_MAX[(bd >> 4) & 7] ?? 0;
    if (max === 0) throw new Lz4FormatError(s + 5, `invalid block size id ${(bd >> 4) & 7}`);
    s += 6 + ((flg & 0x08) ? 8 : 0) + ((flg & 0x01) ? 4 : 0) + 1;
    const blockSum = (flg & 0x10) !== 0;
    for (;;) {
      const word = u32(src, s);
      s += 4;
      if (word === 0) break;
      const size = word & 0x7fffffff;
      if (size > max || s + size > src.length) throw new Lz4FormatError(s - 4, `block of ${size} bytes exceeds the frame (max ${max}, ${src.length - s} left)`);
      const raw = (word & 0x80000000) !== 0;
      blocks.push({ start: s, size, raw, max });
      bound += raw ? size : max;
      s += size + (blockSum ? 4 : 0);
    }
    if (flg & 0x04) s += 4;
    if (s > src.length) throw new Lz4FormatError(src.length, 'truncated content checksum');
  }
  return { blocks, bound };
};

/** Decodes a buffer of one or more LZ4 frames (checksums are skipped, not verified). @public */
export const decodeLz4Frame = (src: Uint8Array): Uint8Array => {
  const { blocks, bound } = scanFrames(src);
  const dst = new Uint8Array(bound);
  let d = 0;
  for (const b of blocks) {
    if (b.raw) { dst.set(src.subarray(b.start, b.start + b.size), d); d += b.size; }
    else d = decodeBlock(src, b.start, b.start + b.size, dst, d);
  }
  // Copy only when the bound overshot by much more than the data, so a small buffer does not pin 4 MiB blocks.
  return bound - d > Math.max(65536, d) ? dst.slice(0, d) : dst.subarray(0, d);
};

/** Encodes `data` as one LZ4 frame (lz4js). @public */
export const encodeLz4Frame = (data: Uint8Array): Uint8Array => {
  const out = lz4jsCompress(data);
  return out instanceof Uint8Array ? out : Uint8Array.from(out);
};
