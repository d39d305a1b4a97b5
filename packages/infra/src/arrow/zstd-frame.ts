import { decompress, init } from '@bokuweb/zstd-wasm';

/** A malformed ZSTD frame, or one that would decode to more than the reader allows. @public */
export class ZstdFormatError extends Error {
  constructor(message: string) {
    super(`ZSTD frame: ${message}`);
    this.name = 'ZstdFormatError';
  }
}

/** Largest buffer one ZSTD frame may decode to: the decoder's wasm heap holds input and output at once. @public */
export const MAX_ZSTD_OUTPUT = 1 << 30;

const MAGIC = 0xfd2fb528;
let loading: Promise<void> | null = null;
let loaded = false;

/** Loads the decoder (official zstd built to WebAssembly) once per thread; readers await it before decoding. @internal */
export const loadZstd = (): Promise<void> =>
  (loading ??= init().then(() => {
    loaded = true;
  }));

/** The frame header's content size (null when the writer left it out, as streaming encoders such as arrow-rs's do). */
export const frameContentSize = (src: Uint8Array): number | null => {
  if (src.length < 6) throw new ZstdFormatError(`${src.length} bytes is too short for a frame header`);
  const view = new DataView(src.buffer, src.byteOffset, src.length);
  if (view.getUint32(0, true) !== MAGIC)
    throw new ZstdFormatError(`bad magic 0x${view.getUint32(0, true).toString(16)}`);
  const descriptor = view.getUint8(4);
  const single = (descriptor & 0x20) !== 0;
  const fcsFlag = descriptor >> 6;
  const fcsBytes = [single ? 1 : 0, 2, 4, 8][fcsFlag] ?? 0;
  if (fcsBytes === 0) return null;
  const at = 5 + (single ? 0 : 1) + [0, 1, 2, 4][descriptor & 3]!;
  if (at + fcsBytes > src.length) throw new ZstdFormatError('frame header runs past the buffer');
  if (fcsBytes === 1) return view.getUint8(at);
  if (fcsBytes === 2) return view.getUint16(at, true) + 256;
  if (fcsBytes === 4) return view.getUint32(at, true);
  return Number(view.getBigUint64(at, true));
};

/**
 * Decodes one ZSTD frame. The output is bounded before anything is allocated: by the frame header's content size, or,
 * where the header has none, by `expected` (the IPC buffer's uncompressed-length prefix); never above MAX_ZSTD_OUTPUT.
 * zstd itself rejects corrupt frames (fzstd, used before, looped forever on some).
 * @public
 */
export const decodeZstdFrame = (src: Uint8Array, expected: number | null = null): Uint8Array => {
  if (!loaded) throw new ZstdFormatError('decoder not loaded (await loadZstd() first)');
  const declared = frameContentSize(src);
  const size = declared ?? expected;
  if (size === null) throw new ZstdFormatError('neither the frame nor the buffer says how large the output is');
  if (size > MAX_ZSTD_OUTPUT)
    throw new ZstdFormatError(`output of ${size} bytes exceeds the ${MAX_ZSTD_OUTPUT}-byte limit per buffer`);
  if (declared !== null && expected !== null && declared !== expected)
    throw new ZstdFormatError(`frame says ${declared} bytes, the buffer ${expected}`);
  let out: Uint8Array;
  try {
    out = decompress(src, { defaultHeapSize: Math.max(size, 1) });
  } catch (e) {
    throw new ZstdFormatError(`corrupt (${e instanceof Error ? e.message : String(e)})`);
  }
  if (out.length !== size) throw new ZstdFormatError(`decoded ${out.length} bytes, expected ${size}`);
  return out;
};
