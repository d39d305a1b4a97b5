import { CompressionType, compressionRegistry } from 'apache-arrow';
import { decompress as zstdDecompress } from 'fzstd';
import { decodeLz4Frame, encodeLz4Frame } from './lz4-frame';

let registered = false;

// 64-bit columns are viewed in place, so a decoded buffer must start on an 8-byte boundary.
const aligned = (bytes: Uint8Array): Uint8Array => (bytes.byteOffset % 8 === 0 ? bytes : bytes.slice());

/**
 * Plugs the IPC body codecs into apache-arrow (it ships none): LZ4 frame read + write, ZSTD read only
 * (fzstd has no encoder). Idempotent; readers and writers call it before touching compressed batches.
 * @internal
 */
export const ensureArrowCodecs = (): void => {
  if (registered) return;
  compressionRegistry.set(CompressionType.LZ4_FRAME, { encode: encodeLz4Frame, decode: decodeLz4Frame });
  compressionRegistry.set(CompressionType.ZSTD, { decode: (data: Uint8Array) => aligned(zstdDecompress(data)) });
  registered = true;
};
