import { constants as bufferConstants } from 'node:buffer';
import os from 'node:os';
import { compressSync } from 'lz4-napi';
import { xxhash32 } from './lz4-xxhash32';

const MAGIC = 0x184d2204;
const SKIPPABLE_MASK = 0xfffffff0;
const SKIPPABLE = 0x184d2a50;
const BLOCK_MAX = [0, 0, 0, 0, 64 << 10, 256 << 10, 1 << 20, 4 << 20];

/** A malformed LZ4 frame; `byteOffset` is relative to the start of the compressed buffer. @public */
export class Lz4FormatError extends Error {
  constructor(
    readonly byteOffset: number,
    message: string,
  ) {
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
  if (offset >= len) {
    dst.copyWithin(d, src, src + len);
    return;
  }
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
    if (s + lit > end || d + lit > dst.length)
      throw new Lz4FormatError(s, `literal run of ${lit} bytes overruns the block`);
    dst.set(src.subarray(s, s + lit), d);
    s += lit;
    d += lit;
    if (s >= end) break;
    if (s + 2 > end) throw new Lz4FormatError(s, 'truncated match offset');
    const offset = (src[s] ?? 0) | ((src[s + 1] ?? 0) << 8);
    s += 2;
    let len = (token & 15) + 4;
    if ((token & 15) === 15) for (let b = 255; b === 255 && s < end; len += b) b = src[s++] ?? 0;
    if (offset === 0 || offset > d)
      throw new Lz4FormatError(s - 2, `match offset ${offset} points before the output start`);
    if (d + len > dst.length) throw new Lz4FormatError(s, `match of ${len} bytes overruns the output`);
    copyMatch(dst, d, offset, len);
    d += len;
  }
  return d;
};

interface FrameBlock {
  readonly start: number;
  readonly size: number;
  readonly raw: boolean;
}
interface Frame {
  readonly at: number;
  readonly blocks: FrameBlock[];
  /** bytes the frame can produce: its declared content size, or what its blocks can hold */
  readonly bound: number;
  readonly contentSize: number | null;
  readonly contentSum: number | null;
}

// LZ4 sequences produce at most 255 bytes per input byte (a length byte of 255 adds 255 to a match).
const MAX_RATIO = 255;

const checkBlockSum = (src: Uint8Array, s: number, size: number): void => {
  const stored = u32(src, s + size);
  const actual = xxhash32(src, s, s + size);
  if (stored !== actual)
    throw new Lz4FormatError(
      s + size,
      `block checksum 0x${stored.toString(16)} does not match the block's 0x${actual.toString(16)}`,
    );
};

/** Reads one frame descriptor (checking its header checksum) and walks its blocks, verifying block checksums. */
const scanFrame = (src: Uint8Array, at: number): { frame: Frame; next: number } => {
  const flg = src[at + 4] ?? 0;
  const bd = src[at + 5] ?? 0;
  if (flg >> 6 !== 1) throw new Lz4FormatError(at + 4, `unsupported frame version ${flg >> 6}`);
  if (flg & 0x02 || bd & 0x8f) throw new Lz4FormatError(at + 4, 'reserved descriptor bits are set');
  if (flg & 0x01) throw new Lz4FormatError(at + 4, 'the frame needs a dictionary, which Arrow files never carry');
  const max = BLOCK_MAX[(bd >> 4) & 7] ?? 0;
  if (max === 0) throw new Lz4FormatError(at + 5, `invalid block size id ${(bd >> 4) & 7}`);
  let s = at + 6;
  let contentSize: number | null = null;
  if (flg & 0x08) {
    const high = u32(src, s + 4);
    if (high > 0x1fffff) throw new Lz4FormatError(s, `content size ${high} × 2^32 bytes is beyond any memory`);
    contentSize = high * 2 ** 32 + u32(src, s);
    s += 8;
  }
  if (s >= src.length) throw new Lz4FormatError(s, 'truncated frame descriptor');
  const hc = (xxhash32(src, at + 4, s) >>> 8) & 0xff;
  if (src[s] !== hc)
    throw new Lz4FormatError(
      s,
      `header checksum 0x${(src[s] ?? 0).toString(16)} does not match the descriptor's 0x${hc.toString(16)}`,
    );
  s += 1;
  const blocks: FrameBlock[] = [];
  let bound = 0;
  for (;;) {
    const word = u32(src, s);
    s += 4;
    if (word === 0) break;
    const size = word & 0x7fffffff;
    if (size > max || s + size > src.length)
      throw new Lz4FormatError(s - 4, `block of ${size} bytes exceeds the frame (max ${max}, ${src.length - s} left)`);
    const raw = (word & 0x80000000) !== 0;
    if (flg & 0x10) checkBlockSum(src, s, size);
    blocks.push({ start: s, size, raw });
    bound += raw ? size : Math.min(max, size * MAX_RATIO);
    s += size + (flg & 0x10 ? 4 : 0);
  }
  const contentSum = flg & 0x04 ? u32(src, s) : null;
  if (flg & 0x04) s += 4;
  return { frame: { at, blocks, bound: contentSize ?? bound, contentSize, contentSum }, next: s };
};

/** Walks the headers of all concatenated frames (skipping skippable ones). */
const scanFrames = (src: Uint8Array): Frame[] => {
  const frames: Frame[] = [];
  let s = 0;
  while (s < src.length) {
    const magic = u32(src, s);
    if ((magic & SKIPPABLE_MASK) >>> 0 === SKIPPABLE) {
      const next = s + 8 + u32(src, s + 4);
      if (next > src.length)
        throw new Lz4FormatError(
          s + 4,
          `skippable frame of ${next - s - 8} bytes runs past the end (${src.length - s - 8} left)`,
        );
      s = next;
      continue;
    }
    if (magic !== MAGIC) throw new Lz4FormatError(s, `bad magic 0x${magic.toString(16)}`);
    const { frame, next } = scanFrame(src, s);
    frames.push(frame);
    s = next;
  }
  return frames;
};

/** What one decode may allocate unless told otherwise: the memory the process can still get, within a buffer's limit. */
const defaultMaxBytes = (): number => Math.min(process.availableMemory?.() ?? os.freemem(), bufferConstants.MAX_LENGTH);

const decodeFrame = (src: Uint8Array, f: Frame, dst: Uint8Array, d: number): number => {
  const begin = d;
  for (const b of f.blocks) {
    if (b.raw) {
      if (d + b.size > dst.length)
        throw new Lz4FormatError(
          b.start,
          `stored block of ${b.size} bytes overruns the declared content size ${f.contentSize}`,
        );
      dst.set(src.subarray(b.start, b.start + b.size), d);
      d += b.size;
    } else d = decodeBlock(src, b.start, b.start + b.size, dst, d);
  }
  if (f.contentSize !== null && d - begin !== f.contentSize)
    throw new Lz4FormatError(
      f.at + 6,
      `the frame declares ${f.contentSize} bytes of content but its blocks hold ${d - begin}`,
    );
  const sum = f.contentSum === null ? null : xxhash32(dst, begin, d);
  if (sum !== null && sum !== f.contentSum)
    throw new Lz4FormatError(
      f.at,
      `content checksum 0x${f.contentSum!.toString(16)} does not match the decoded content's 0x${sum.toString(16)}`,
    );
  return d;
};

/** Limits of one decode. @public */
export interface Lz4DecodeLimits {
  /** exact decoded size when the container knows it (Arrow's body buffers do) */
  readonly expectedBytes?: number;
  /** the most this decode may allocate; default: the memory available to the process */
  readonly maxBytes?: number;
}

/**
 * Decodes a buffer of one or more LZ4 frames. Header, block and content checksums are verified when the frame carries
 * them; the output is sized from the frames' declared content sizes or block bounds, and refused before any allocation
 * when that exceeds `maxBytes` (default: available memory), with the size asked for in the error.
 * @public
 */
export const decodeLz4Frame = (src: Uint8Array, limits: Lz4DecodeLimits = {}): Uint8Array => {
  const frames = scanFrames(src);
  const bound = frames.reduce((n, f) => n + f.bound, 0);
  const size = limits.expectedBytes ?? bound;
  const maxBytes = limits.maxBytes ?? defaultMaxBytes();
  if (size > maxBytes)
    throw new Lz4FormatError(
      0,
      `decompressing would need ${size} bytes (${frames.length} frame(s) of ${src.length} compressed bytes), more than the ${maxBytes} bytes available`,
    );
  const dst = new Uint8Array(Math.min(size, bound));
  let d = 0;
  for (const f of frames) d = decodeFrame(src, f, dst, d);
  if (limits.expectedBytes !== undefined && d !== limits.expectedBytes)
    throw new Lz4FormatError(0, `decoded ${d} bytes where ${limits.expectedBytes} were expected`);
  // Copy only when the bound overshot by much more than the data, so a small buffer does not pin 4 MiB blocks.
  return dst.length - d > Math.max(65536, d) ? dst.slice(0, d) : dst.subarray(0, d);
};

/** Bytes per block we write: the frame's 4 MiB maximum (BD 0x70), so a reader needs one block buffer of that size. */
const WRITE_BLOCK = 4 << 20;

/**
 * Compresses one block with lz4_flex (through lz4-napi), whose compressor keeps the block format's end rules (no match
 * starts in the last 12 bytes, the last 5 are literals): liblz4, and so pyarrow and Polars, rejects blocks that break
 * them. Returns null when the block does not shrink, so the caller stores it raw.
 */
const compressBlock = (block: Uint8Array): Uint8Array | null => {
  const sized = compressSync(Buffer.from(block.buffer, block.byteOffset, block.length));
  // lz4-napi prepends the uncompressed size (4 bytes, little-endian); the frame carries sizes itself.
  return sized.length - 4 < block.length ? sized.subarray(4) : null;
};

/**
 * Encodes `data` as one LZ4 frame of independent 4 MiB blocks (raw where compression does not pay), under a
 * descriptor that declares the content size and carries a content checksum, so a reader can tell a damaged frame from a
 * good one.
 * @public
 */
export const encodeLz4Frame = (data: Uint8Array): Uint8Array => {
  const blocks: Uint8Array[] = [];
  let total = 0;
  for (let at = 0; at < data.length; at += WRITE_BLOCK) {
    const plain = data.subarray(at, at + WRITE_BLOCK);
    const packed = compressBlock(plain);
    const header = new Uint8Array(4);
    new DataView(header.buffer).setUint32(0, packed ? packed.length : (plain.length | 0x80000000) >>> 0, true);
    blocks.push(header, packed ?? plain);
    total += 4 + (packed ?? plain).length;
  }
  const out = new Uint8Array(4 + 2 + 8 + 1 + total + 4 + 4);
  const view = new DataView(out.buffer);
  view.setUint32(0, MAGIC, true);
  out[4] = 0x40 | 0x20 | 0x08 | 0x04; // version 1, independent blocks, content size, content checksum
  out[5] = 0x70; // 4 MiB blocks
  view.setUint32(6, data.length % 2 ** 32, true);
  view.setUint32(10, Math.floor(data.length / 2 ** 32), true);
  out[14] = (xxhash32(out, 4, 14) >>> 8) & 0xff;
  let s = 15;
  for (const b of blocks) {
    out.set(b, s);
    s += b.length;
  }
  view.setUint32(s, 0, true); // end mark
  view.setUint32(s + 4, xxhash32(data), true);
  return out;
};
