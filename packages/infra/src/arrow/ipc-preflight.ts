import { FlatbufferRangeError, FlatbufferView } from './flatbuffer-view';

/** A structural problem found before apache-arrow parses the bytes, with its byte offset. @internal */
export interface PreflightIssue {
  readonly byteOffset: number;
  readonly message: string;
}

const HEADER_SCHEMA = 1;
const HEADER_DICTIONARY = 2;
const HEADER_RECORD_BATCH = 3;
const MAX_FIELDS = 10_000;

/** Counts schema fields recursively, refusing absurd or cyclic trees. */
const countFields = (fb: FlatbufferView, table: number, vectorField: number, depth: number): number => {
  if (depth > 64) throw new FlatbufferRangeError('schema nesting deeper than 64');
  const { length, start } = fb.vector(table, vectorField, 4);
  if (length > MAX_FIELDS) throw new FlatbufferRangeError(`schema lists ${length} fields`);
  let total = length;
  for (let i = 0; i < length; i++) {
    const child = start + 4 * i + fb.u32(start + 4 * i);
    total += countFields(fb, child, 5, depth + 1);
    if (total > MAX_FIELDS) throw new FlatbufferRangeError(`schema has more than ${MAX_FIELDS} fields`);
  }
  return total;
};

/** Checks a record batch header: vectors fit, buffers lie inside the body, lengths are sane. */
const checkRecordBatch = (fb: FlatbufferView, rb: number, bodyLength: number): void => {
  const rows = fb.field(rb, 0) === null ? 0 : fb.i64(fb.field(rb, 0) ?? 0);
  if (rows < 0 || rows > 2 ** 31) throw new FlatbufferRangeError(`record batch length ${rows}`);
  const nodes = fb.vector(rb, 1, 16);
  if (nodes.length > MAX_FIELDS) throw new FlatbufferRangeError(`${nodes.length} field nodes`);
  for (let i = 0; i < nodes.length; i++) {
    const len = fb.i64(nodes.start + 16 * i);
    const nulls = fb.i64(nodes.start + 16 * i + 8);
    if (len < 0 || len > 2 ** 40 || nulls < 0 || nulls > len) throw new FlatbufferRangeError(`field node ${i}: length ${len}, nulls ${nulls}`);
  }
  const buffers = fb.vector(rb, 2, 16);
  if (buffers.length > 4 * MAX_FIELDS) throw new FlatbufferRangeError(`${buffers.length} buffers`);
  for (let i = 0; i < buffers.length; i++) {
    const off = fb.i64(buffers.start + 16 * i);
    const len = fb.i64(buffers.start + 16 * i + 8);
    if (off < 0 || len < 0 || off + len > bodyLength) throw new FlatbufferRangeError(`buffer ${i} [${off}, +${len}) outside the ${bodyLength}-byte body`);
  }
};

/** Checks the message at `pos` (before `end`); returns its total size and type. */
const checkMessageAt = (bytes: Uint8Array, pos: number, end: number): { size: number; type: number } => {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const msgStart = pos;
  if (pos + 4 > end) throw new PreflightFailure(msgStart, `message header runs past byte ${end}`);
  let metaLen = view.getInt32(pos, true);
  if (metaLen === -1) { pos += 4; metaLen = pos + 4 <= end ? view.getInt32(pos, true) : 0; }
  pos += 4;
  if (metaLen === 0) return { size: pos - msgStart, type: 0 }; // end-of-stream marker
  if (metaLen < 0 || pos + metaLen > end) throw new PreflightFailure(msgStart, `message metadata of ${metaLen} bytes runs past byte ${end}`);
  const fb = new FlatbufferView(bytes.subarray(pos, pos + metaLen));
  try {
    const msg = fb.root();
    const type = fb.field(msg, 1) === null ? 0 : fb.u8(fb.field(msg, 1) ?? 0);
    const bodyLength = fb.field(msg, 3) === null ? 0 : fb.i64(fb.field(msg, 3) ?? 0);
    if (bodyLength < 0 || pos + metaLen + bodyLength > end) throw new FlatbufferRangeError(`body of ${bodyLength} bytes runs past byte ${end}`);
    const header = fb.ref(msg, 2);
    if (header === null) throw new FlatbufferRangeError('message without header');
    if (type === HEADER_SCHEMA) countFields(fb, header, 1, 0);
    else if (type === HEADER_RECORD_BATCH) checkRecordBatch(fb, header, bodyLength);
    else if (type === HEADER_DICTIONARY) { const rb = fb.ref(header, 1); if (rb !== null) checkRecordBatch(fb, rb, bodyLength); }
    else throw new FlatbufferRangeError(`unknown message type ${type}`);
    return { size: pos + metaLen + bodyLength - msgStart, type };
  } catch (e) {
    if (e instanceof FlatbufferRangeError) throw new PreflightFailure(msgStart, e.message);
    throw e;
  }
};

/** Walks a stream of encapsulated messages up to the end-of-stream marker or `end`. */
const walkStream = (bytes: Uint8Array, start: number, end: number): void => {
  for (let pos = start; pos + 4 <= end;) {
    const m = checkMessageAt(bytes, pos, end);
    if (m.type === 0) return;
    pos += m.size;
  }
};

/** File format: readers locate messages through the footer's blocks, so those are what must be sound. */
const checkFooterBlocks = (bytes: Uint8Array, footerStart: number, footerLen: number): PreflightIssue | null => {
  const fb = new FlatbufferView(bytes.subarray(footerStart, footerStart + footerLen));
  let blocks: { offset: number; meta: number; body: number }[] = [];
  try {
    const footer = fb.root();
    countFields(fb, fb.ref(footer, 1) ?? 0, 1, 0);
    for (const field of [2, 3]) {
      const v = fb.vector(footer, field, 24);
      for (let i = 0; i < v.length; i++) blocks.push({ offset: fb.i64(v.start + 24 * i), meta: fb.i32(v.start + 24 * i + 8), body: fb.i64(v.start + 24 * i + 16) });
    }
  } catch (e) {
    if (e instanceof FlatbufferRangeError) return { byteOffset: footerStart, message: `footer: ${e.message}` };
    throw e;
  }
  blocks = blocks.filter((b) => b.offset >= 0);
  for (const [i, b] of blocks.entries()) {
    if (b.offset < 8 || b.meta <= 0 || b.body < 0 || b.offset + b.meta + b.body > footerStart) return { byteOffset: footerStart, message: `footer block ${i} [${b.offset}, +${b.meta}+${b.body}) lies outside the data` };
    checkMessageAt(bytes, b.offset, b.offset + b.meta + b.body);
  }
  return null;
};

class PreflightFailure extends Error {
  constructor(readonly byteOffset: number, message: string) { super(message); }
}

/**
 * Verifies the IPC framing and every message header before apache-arrow sees the bytes: corrupted metadata can
 * otherwise make it loop over billions of phantom nodes. For the File format every block the footer lists must hold a
 * sound message (what precedes the blocks is not read: Polars writes a bare schema there).
 * @internal
 */
export const preflightIpc = (bytes: Uint8Array): PreflightIssue | null => {
  try {
    const isFile = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(6, bytes.length)).toString('latin1') === 'ARROW1';
    if (!isFile) { walkStream(bytes, 0, bytes.length); return null; }
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const footerLen = view.getInt32(bytes.length - 10, true);
    const footerStart = bytes.length - 10 - footerLen;
    if (footerLen <= 0 || footerStart < 8) return { byteOffset: bytes.length - 10, message: `footer length ${footerLen} does not fit the file` };
    return checkFooterBlocks(bytes, footerStart, footerLen);
  } catch (e) {
    if (e instanceof PreflightFailure) return { byteOffset: e.byteOffset, message: e.message };
    throw e;
  }
};
