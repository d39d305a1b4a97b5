import { open } from 'node:fs/promises';

/** Random access to the bytes of one file; counts what it hands out so tests and benches can prove what was read. @internal */
export interface ByteSource {
  readonly size: number;
  /** Exactly `length` bytes at `offset`; callers check the range against `size` first. */
  read(offset: number, length: number): Promise<Uint8Array>;
  /** Bytes handed out so far. */
  readonly bytesRead: number;
}

/** A source over bytes already in memory (a file read whole for decoding). @internal */
export const memoryByteSource = (bytes: Uint8Array): ByteSource => {
  let count = 0;
  return {
    size: bytes.length,
    get bytesRead() {
      return count;
    },
    read: async (offset, length) => {
      count += length;
      return bytes.subarray(offset, offset + length);
    },
  };
};

/** Runs `use` with a source reading a file through positioned reads (no whole-file read). @internal */
export const withFileByteSource = async <T>(path: string, use: (source: ByteSource) => Promise<T>): Promise<T> => {
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    let count = 0;
    const source: ByteSource = {
      size,
      get bytesRead() {
        return count;
      },
      read: async (offset, length) => {
        const buf = Buffer.alloc(length);
        const { bytesRead } = await handle.read(buf, 0, length, offset);
        if (bytesRead !== length) throw new Error(`short read: ${bytesRead} of ${length} bytes at ${offset}`);
        count += length;
        return new Uint8Array(buf.buffer, buf.byteOffset, length);
      },
    };
    return await use(source);
  } finally {
    await handle.close();
  }
};
