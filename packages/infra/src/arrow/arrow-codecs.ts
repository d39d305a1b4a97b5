import { CompressionType, compressionRegistry } from 'apache-arrow';
import { decodeLz4Frame, encodeLz4Frame } from './lz4-frame';
import { decodeZstdFrame, frameContentSize } from './zstd-frame';

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

/** Thrown when the buffers of one file would decompress to more than its budget (see `withDecodeBudget`). @public */
export class DecodeBudgetError extends Error {}

// What the codecs may still produce for the file being decoded; unbounded outside `withDecodeBudget`.
let budget = { left: Number.POSITIVE_INFINITY, total: Number.POSITIVE_INFINITY, why: '' };

/** Takes `bytes` from the budget of the file being decoded; throws once that budget is spent. */
const spend = (bytes: number): void => {
  if (bytes > budget.left) {
    throw new DecodeBudgetError(
      `decompressing a ${bytes}-byte buffer would pass the file's budget of ${budget.total} bytes (${budget.why}); ` +
        `${budget.total - budget.left} bytes were already decoded`,
    );
  }
  budget.left -= bytes;
};

/**
 * Runs a synchronous decode of one file's record batches with a cap on the bytes its compressed buffers may expand to
 * together, so a decompression bomb spread over many buffers stops once the file has used its budget instead of
 * growing until memory runs out. A single buffer is bounded by its codec (available memory for LZ4, 1 GiB for ZSTD).
 * @internal
 */
export const withDecodeBudget = <T>(bytes: number, why: string, decode: () => T): T => {
  const outer = budget;
  budget = { left: bytes, total: bytes, why };
  try {
    return decode();
  } finally {
    budget = outer;
  }
};

// The length prefix is not trusted here: apache-arrow's own writer puts the compressed size there. Each buffer is
// bounded by the frame decoder (declared or block-bound size against available memory), and charged once decoded.
const decodeLz4 = (data: Uint8Array): Uint8Array => {
  const out = decodeLz4Frame(data);
  spend(out.length);
  return out;
};

const decodeZstd = (data: Uint8Array): Uint8Array => {
  const expected = lengthPrefix(data);
  spend(frameContentSize(data) ?? expected ?? 0);
  return aligned(decodeZstdFrame(data, expected));
};

/**
 * Plugs the IPC body codecs into apache-arrow (it ships none): LZ4 frame read + write, ZSTD read (readers also await
 * `loadZstd`). Idempotent; readers and writers call it before touching compressed batches.
 * @internal
 */
export const ensureArrowCodecs = (): void => {
  if (registered) return;
  compressionRegistry.set(CompressionType.LZ4_FRAME, { encode: encodeLz4Frame, decode: decodeLz4 });
  compressionRegistry.set(CompressionType.ZSTD, { decode: decodeZstd });
  registered = true;
};
