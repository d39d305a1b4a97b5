import { open } from 'node:fs/promises';
import { Message } from 'apache-arrow';
import { Footer } from 'apache-arrow/ipc/metadata/file';

const MAGIC = 'ARROW1';
const TRAILER = 10; // int32 footer length + "ARROW1"

/**
 * Rows in an Arrow IPC File, read from the footer and the record-batch message headers only:
 * no body is read or decompressed, so it costs a few small reads even for LZ4 files of gigabytes.
 * Returns null for files that are not IPC File format (IPC Stream has no footer).
 * @internal
 */
export const countFeatherRows = async (path: string): Promise<number | null> => {
  const file = await open(path, 'r');
  try {
    const { size } = await file.stat();
    if (size < 2 * TRAILER) return null;
    const trailer = Buffer.alloc(TRAILER);
    await file.read(trailer, 0, TRAILER, size - TRAILER);
    if (trailer.toString('latin1', 4) !== MAGIC) return null;
    const footerLength = trailer.readInt32LE(0);
    if (footerLength <= 0 || footerLength > size - 2 * TRAILER) throw new Error(`footer length ${footerLength} does not fit a ${size}-byte file`);
    const footerBytes = Buffer.alloc(footerLength);
    await file.read(footerBytes, 0, footerLength, size - TRAILER - footerLength);
    const footer = Footer.decode(footerBytes);
    const bodyEnd = size - TRAILER - footerLength;
    let rows = 0;
    for (const block of footer.recordBatches()) {
      const end = Number(block.offset) + block.metaDataLength + Number(block.bodyLength);
      if (Number(block.offset) < 0 || block.metaDataLength < 8 || end > bodyEnd) throw new Error(`record batch at byte ${Number(block.offset)} ends at byte ${end}, past the footer at byte ${bodyEnd}`);
      const meta = Buffer.alloc(block.metaDataLength);
      await file.read(meta, 0, block.metaDataLength, Number(block.offset));
      // A 0xFFFFFFFF continuation marker precedes the length since format 0.15; older files start with the length.
      const start = meta.readInt32LE(0) === -1 ? 8 : 4;
      const message = Message.decode(meta.subarray(start));
      if (message.isRecordBatch()) rows += Number(message.header().length);
    }
    return rows;
  } finally {
    await file.close();
  }
};

/**
 * Throws when a downloaded file is not a whole Arrow IPC file: a File-format start without its footer (cut short),
 * or a footer whose record batches lie past it. Stream-format files (no footer) are left to the reader.
 * @internal
 */
export const checkCompleteArrowFile = async (path: string): Promise<void> => {
  if ((await countFeatherRows(path)) !== null) return;
  const file = await open(path, 'r');
  try {
    const head = Buffer.alloc(6);
    await file.read(head, 0, 6, 0);
    if (head.toString('latin1') === MAGIC) throw new Error('an Arrow IPC file without its footer (cut short)');
  } finally {
    await file.close();
  }
};
