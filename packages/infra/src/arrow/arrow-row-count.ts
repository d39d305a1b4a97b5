import { MessageHeader, MessageReader } from 'apache-arrow';

/**
 * Rows of an Arrow IPC File or Stream from message headers only (bodies are skipped, never decompressed),
 * so listing shards stays cheap.
 * @internal
 */
export const countArrowRows = (bytes: Uint8Array): number => {
  const isFile = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(6, bytes.length)).toString('latin1') === 'ARROW1';
  const reader = new MessageReader(isFile ? bytes.subarray(8) : bytes);
  let rows = 0;
  for (let msg = reader.readMessage(); msg; msg = reader.readMessage()) {
    if (msg.headerType === MessageHeader.RecordBatch) rows += Number((msg.header() as { length: number | bigint }).length);
    if (msg.bodyLength > 0) reader.readMessageBody(msg.bodyLength);
  }
  return rows;
};
