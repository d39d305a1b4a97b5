import { CompressionType, compressionRegistry } from 'apache-arrow';
import { decodeLz4Frame, encodeLz4Frame } from './lz4-frame';
import { decodeZstdFrame } from './zstd-frame';

let registered = false;

// 64-bit columns are viewed in place, so a decoded buffer must start on an 8-byte boundary.
const aligned = (bytes: Uint8Array): Uint8Array => (bytes.byteOffset % 8 === 0 ? bytes : bytes.slice());

/**
 * The uncompressed length apache-arrow strips from a compressed IPC buffer before handing it to a codec: the 8 bytes
 * before the slice, which is a view into the record batch body. Null if the slice is not such a view.
 */
const lengthPrefix = (data: Uint8Array): number | null => {
  if (data.byteOffset < 8) return null;
  const n = new DataView(data.buffer, data.byteOffset - 8, 8).getBigInt64(0, true);
  return n >= 0n && n <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : null;
};

/**
 * Plugs the IPC body codecs into apache-arrow (it ships none): LZ4 frame read + write, ZSTD read (readers also await
 * `loadZstd`). Idempotent; readers and writers call it before touching compressed batches.
 * @internal
 */
export const ensureArrowCodecs = (): void => {
  if (registered) return;
  compressionRegistry.set(CompressionType.LZ4_FRAME, { encode: encodeLz4Frame, decode: decodeLz4Frame });
  compressionRegistry.set(CompressionType.ZSTD, { decode: (data: Uint8Array) => aligned(decodeZstdFrame(data, lengthPrefix(data))) });
  registered = true;
};
