import { Message } from 'apache-arrow';
import { memoryByteSource, readIpcLayout } from '@maou/bench-infra';

/**
 * Test-only: the compressed body buffers of every record batch of an IPC File or Stream, without their int64
 * uncompressed-length prefix (LZ4 or ZSTD frames, as the writer stored them). Positions come from each batch's own
 * metadata, read by apache-arrow's message parser; buffers stored uncompressed (prefix -1) or empty are skipped.
 */
export const compressedBodyBuffers = async (bytes: Uint8Array): Promise<Uint8Array[]> => {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  const layout = await readIpcLayout(memoryByteSource(bytes));
  const frames: Uint8Array[] = [];
  for (const { offset } of layout.batches) {
    const prefix = view.getInt32(offset, true) === -1 ? 8 : 4;
    const metaLength = view.getInt32(offset + prefix - 4, true);
    const message = Message.decode(bytes.subarray(offset + prefix, offset + prefix + metaLength));
    const body = offset + prefix + metaLength;
    const header = message.header() as { buffers: { offset: number; length: number }[] };
    for (const b of header.buffers) {
      if (b.length <= 8) continue;
      const at = body + Number(b.offset);
      if (view.getBigInt64(at, true) === -1n) continue;
      frames.push(bytes.subarray(at + 8, at + Number(b.length)));
    }
  }
  return frames;
};
