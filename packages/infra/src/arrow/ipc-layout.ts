import { DataType, Message, type Field, type Schema } from 'apache-arrow';
import { Footer } from 'apache-arrow/ipc/metadata/file';
import { withFileByteSource, type ByteSource } from './byte-source';
import { FlatbufferRangeError, FlatbufferView } from './flatbuffer-view';

/** Where an IPC record batch sits and how many rows it holds, from its message header alone. @internal */
export interface IpcBatchBlock {
  readonly offset: number;
  readonly rows: number;
}

/** The structure of an Arrow IPC file, read from its footer or message headers, never from a body. @public */
export interface IpcLayout {
  readonly format: 'file' | 'stream';
  readonly schema: Schema;
  readonly batches: readonly IpcBatchBlock[];
  readonly rows: number;
  readonly size: number;
}

/** A structural problem in IPC framing or metadata, with the byte offset where it sits. @public */
export class IpcLayoutError extends Error {
  constructor(
    readonly byteOffset: number,
    message: string,
  ) {
    super(message);
    this.name = 'IpcLayoutError';
  }
}

/**
 * A well-formed file beyond one of this reader's limits (more than {@link MAX_FIELDS} columns): not damage, so the
 * message names the limit instead.
 * @public
 */
export class IpcLimitError extends IpcLayoutError {
  constructor(byteOffset: number, message: string) {
    super(byteOffset, message);
    this.name = 'IpcLimitError';
  }
}

/** A count beyond a limit of this reader, inside otherwise sound metadata. */
class FieldLimit extends FlatbufferRangeError {}
const tooManyFields = (n: number | string): FieldLimit =>
  new FieldLimit(
    `the schema has ${n} fields (columns, nested ones included), more than the ${MAX_FIELDS} this reader accepts`,
  );
/** Rethrows a FlatbufferRangeError at `at` as a layout error, or as a limit error when it was a limit. */
const asLayoutError = (at: number, prefix: string, e: unknown): never => {
  if (e instanceof FieldLimit) throw new IpcLimitError(at, e.message);
  if (e instanceof FlatbufferRangeError) throw new IpcLayoutError(at, `${prefix}${e.message}`);
  throw e;
};

const MAGIC = 'ARROW1';
const TRAILER = 10; // int32 footer length + "ARROW1"
const HEADER_SCHEMA = 1;
const HEADER_DICTIONARY = 2;
const HEADER_RECORD_BATCH = 3;
const MAX_FIELDS = 10_000;
const MAX_ROWS = 2 ** 31;

const latin1 = (b: Uint8Array): string => Buffer.from(b.buffer, b.byteOffset, b.length).toString('latin1');

/**
 * A custom_metadata vector (Schema field 2, Field field 6, Message field 4) and its key/value strings must fit: apache-arrow
 * walks a flipped length of billions of entries one by one, which hangs the reader.
 */
const checkKeyValues = (fb: FlatbufferView, table: number, vectorField: number): void => {
  const { length, start } = fb.vector(table, vectorField, 4);
  if (length > MAX_FIELDS) throw new FlatbufferRangeError(`custom metadata lists ${length} entries`);
  for (let i = 0; i < length; i++) {
    const kv = start + 4 * i + fb.u32(start + 4 * i);
    fb.string(kv, 0);
    fb.string(kv, 1);
  }
};

/** Counts schema fields recursively (FlatBuffers field 1 of Schema = fields, field 5 of Field = children), checking names and metadata. */
const countFields = (fb: FlatbufferView, table: number, vectorField: number, depth: number): number => {
  if (depth > 64) throw new FlatbufferRangeError('schema nesting deeper than 64');
  if (depth === 0) checkKeyValues(fb, table, 2);
  const { length, start } = fb.vector(table, vectorField, 4);
  if (length > MAX_FIELDS) throw tooManyFields(length);
  let total = length;
  for (let i = 0; i < length; i++) {
    const field = start + 4 * i + fb.u32(start + 4 * i);
    fb.string(field, 0);
    checkKeyValues(fb, field, 6);
    total += countFields(fb, field, 5, depth + 1);
    if (total > MAX_FIELDS) throw tooManyFields(`more than ${total}`);
  }
  return total;
};

/** A record batch header: vectors fit, buffers lie inside the body, lengths are sane. Returns its row count. */
const checkRecordBatch = (fb: FlatbufferView, rb: number, bodyLength: number): number => {
  const lengthAt = fb.field(rb, 0);
  const rows = lengthAt === null ? 0 : fb.i64(lengthAt);
  if (rows < 0 || rows > MAX_ROWS) throw new FlatbufferRangeError(`record batch length ${rows}`);
  const nodes = fb.vector(rb, 1, 16);
  if (nodes.length > MAX_FIELDS) throw tooManyFields(nodes.length);
  for (let i = 0; i < nodes.length; i++) {
    const len = fb.i64(nodes.start + 16 * i);
    const nulls = fb.i64(nodes.start + 16 * i + 8);
    if (len < 0 || len > 2 ** 40 || nulls < 0 || nulls > len)
      throw new FlatbufferRangeError(`field node ${i}: length ${len}, nulls ${nulls}`);
  }
  const buffers = fb.vector(rb, 2, 16);
  if (buffers.length > 4 * MAX_FIELDS) throw new FlatbufferRangeError(`${buffers.length} buffers`);
  for (let i = 0; i < buffers.length; i++) {
    const off = fb.i64(buffers.start + 16 * i);
    const len = fb.i64(buffers.start + 16 * i + 8);
    if (off < 0 || len < 0 || off + len > bodyLength)
      throw new FlatbufferRangeError(`buffer ${i} [${off}, +${len}) outside the ${bodyLength}-byte body`);
  }
  // View columns (Utf8View/BinaryView, as polars writes strings) count their data buffers here, one int64 each.
  const variadic = fb.vector(rb, 4, 8);
  for (let i = 0; i < variadic.length; i++) {
    const count = fb.i64(variadic.start + 8 * i);
    if (count < 0 || count > buffers.length)
      throw new FlatbufferRangeError(`variadic buffer count ${i} is ${count}, the batch has ${buffers.length} buffers`);
  }
  return rows;
};

interface CheckedMessage {
  readonly type: number;
  readonly bodyLength: number;
  readonly rows: number;
}

/** Checks one message's FlatBuffers metadata (without its length prefix) before apache-arrow decodes it. */
const checkMessage = (meta: Uint8Array, at: number, bodyRoom: number): CheckedMessage => {
  const fb = new FlatbufferView(meta);
  try {
    const msg = fb.root();
    const typeAt = fb.field(msg, 1);
    const type = typeAt === null ? 0 : fb.u8(typeAt);
    const bodyAt = fb.field(msg, 3);
    const bodyLength = bodyAt === null ? 0 : fb.i64(bodyAt);
    if (bodyLength < 0 || bodyLength > bodyRoom)
      throw new FlatbufferRangeError(`body of ${bodyLength} bytes runs past the ${bodyRoom} bytes left`);
    const header = fb.ref(msg, 2);
    if (header === null) throw new FlatbufferRangeError('message without header');
    checkKeyValues(fb, msg, 4);
    let rows = 0;
    if (type === HEADER_SCHEMA) countFields(fb, header, 1, 0);
    else if (type === HEADER_RECORD_BATCH) rows = checkRecordBatch(fb, header, bodyLength);
    else if (type === HEADER_DICTIONARY) {
      const rb = fb.ref(header, 1);
      if (rb !== null) checkRecordBatch(fb, rb, bodyLength);
    } else throw new FlatbufferRangeError(`unknown message type ${type}`);
    return { type, bodyLength, rows };
  } catch (e) {
    return asLayoutError(at, '', e);
  }
};

const decode = <T>(at: number, what: string, fn: () => T): T => {
  try {
    return fn();
  } catch (e) {
    throw new IpcLayoutError(at, `${what}: ${e instanceof Error ? e.message : String(e)}`);
  }
};

/** Every field decoded with a type, and nested types with the children their type needs (a flipped union tag leaves them out). */
const checkSchemaTree = (schema: Schema, at: number): void => {
  const walk = (f: Field | undefined, path: string): void => {
    if (!f || !f.type) throw new IpcLayoutError(at, `schema field ${path} did not decode`);
    const children = (f.type.children ?? []) as (Field | undefined)[];
    const kind = DataType.isList(f.type)
      ? 'List'
      : DataType.isLargeList(f.type)
        ? 'LargeList'
        : DataType.isFixedSizeList(f.type)
          ? 'FixedSizeList'
          : DataType.isMap(f.type)
            ? 'Map'
            : null;
    if (kind && children.length !== 1)
      throw new IpcLayoutError(at, `schema field ${path}: ${kind} with ${children.length} child fields, expected 1`);
    if (
      kind === 'Map' &&
      !(children[0] && DataType.isStruct(children[0].type) && (children[0].type.children ?? []).length === 2)
    ) {
      throw new IpcLayoutError(at, `schema field ${path}: Map whose entries are not a struct of key and value`);
    }
    children.forEach((c, i) => walk(c, `${path}.${c?.name ?? i}`));
  };
  schema.fields.forEach((f, i) => walk(f, f?.name ?? String(i)));
};

const nodeCount = (f: Field): number =>
  1 + (f.type.children ?? []).reduce((n: number, c: Field) => n + nodeCount(c), 0);

/** Pre-order field nodes of a batch must match the schema; top-level ones must hold the batch's rows. */
const checkNodes = (schema: Schema, meta: Uint8Array, at: number): void => {
  const message = decode(at, 'record batch header', () => Message.decode(meta));
  if (!message.isRecordBatch()) return;
  const header = message.header();
  const expected = schema.fields.reduce((n, f) => n + nodeCount(f), 0);
  if (header.nodes.length !== expected)
    throw new IpcLayoutError(at, `record batch has ${header.nodes.length} field nodes, the schema ${expected}`);
  let i = 0;
  const walk = (f: Field, length: number): void => {
    const node = header.nodes[i++];
    if (!node || node.length !== length)
      throw new IpcLayoutError(at, `field ${f.name}: ${node?.length ?? 0} values, expected ${length}`);
    const inner = DataType.isFixedSizeList(f.type) ? length * f.type.listSize : null;
    for (const c of f.type.children ?? []) {
      if (inner !== null) walk(c, inner);
      else {
        const n = header.nodes[i];
        walk(c, n ? n.length : -1);
      }
    }
  };
  for (const f of schema.fields) walk(f, header.length);
};

const readSchema = (meta: Uint8Array, at: number): Schema => {
  const message = decode(at, 'schema message', () => Message.decode(meta));
  if (!message.isSchema()) throw new IpcLayoutError(at, 'the first message is not a schema');
  checkSchemaTree(message.header(), at);
  return message.header();
};

/** IPC File: the trailer and footer give the schema and each record batch's block; only their metadata is read. */
const readFileLayout = async (src: ByteSource): Promise<IpcLayout> => {
  const { size } = src;
  const trailer = await src.read(size - TRAILER, TRAILER);
  if (latin1(trailer.subarray(4)) !== MAGIC)
    throw new IpcLayoutError(size - 6, 'Arrow IPC File without trailing ARROW1 magic (truncated?)');
  const footerLength = new DataView(trailer.buffer, trailer.byteOffset, 4).getInt32(0, true);
  const footerStart = size - TRAILER - footerLength;
  if (footerLength <= 0 || footerStart < 8)
    throw new IpcLayoutError(size - TRAILER, `footer length ${footerLength} does not fit the ${size}-byte file`);
  const footerBytes = await src.read(footerStart, footerLength);
  const fb = new FlatbufferView(footerBytes);
  try {
    const footer = fb.root();
    countFields(fb, fb.ref(footer, 1) ?? 0, 1, 0);
    fb.vector(footer, 2, 24); // dictionaries
    fb.vector(footer, 3, 24); // record batches
  } catch (e) {
    asLayoutError(footerStart, 'footer: ', e);
  }
  const { schema, blocks } = decode(footerStart, 'footer', () => {
    const footer = Footer.decode(footerBytes);
    return { schema: footer.schema, blocks: [...footer.recordBatches()] };
  });
  checkSchemaTree(schema, footerStart);
  const batches: IpcBatchBlock[] = [];
  let rows = 0;
  for (const block of blocks) {
    const offset = Number(block.offset);
    const metaLength = block.metaDataLength;
    const bodyLength = Number(block.bodyLength);
    if (offset < 8 || metaLength < 8 || bodyLength < 0 || offset + metaLength + bodyLength > footerStart) {
      throw new IpcLayoutError(
        footerStart,
        `footer block ${batches.length} [${offset}, +${metaLength}+${bodyLength}) lies outside the ${footerStart} bytes of data`,
      );
    }
    const framed = await src.read(offset, metaLength);
    const view = new DataView(framed.buffer, framed.byteOffset, framed.length);
    // A 0xFFFFFFFF continuation marker precedes the length since format 0.15; older files start with the length.
    const prefix = view.getInt32(0, true) === -1 ? 8 : 4;
    const inner = view.getInt32(prefix - 4, true);
    if (inner <= 0 || prefix + inner > metaLength)
      throw new IpcLayoutError(offset, `message metadata of ${inner} bytes does not fit its ${metaLength}-byte block`);
    const meta = framed.subarray(prefix, prefix + inner);
    const m = checkMessage(meta, offset, bodyLength);
    if (m.type !== HEADER_RECORD_BATCH)
      throw new IpcLayoutError(
        offset,
        `footer block ${batches.length} holds message type ${m.type}, not a record batch`,
      );
    checkNodes(schema, meta, offset);
    batches.push({ offset, rows: m.rows });
    rows += m.rows;
  }
  return { format: 'file', schema, batches, rows, size };
};

/** IPC Stream: walks message headers, skipping each body by the length its header gives (seeks, no reads). */
const readStreamLayout = async (src: ByteSource): Promise<IpcLayout> => {
  const { size } = src;
  let schema: Schema | null = null;
  const batches: IpcBatchBlock[] = [];
  let rows = 0;
  for (let pos = 0; pos + 4 <= size;) {
    const head = await src.read(pos, Math.min(8, size - pos));
    const view = new DataView(head.buffer, head.byteOffset, head.length);
    const continued = view.getInt32(0, true) === -1;
    if (continued && head.length < 8) throw new IpcLayoutError(pos, 'message length runs past the end of the file');
    const prefix = continued ? 8 : 4;
    const metaLength = view.getInt32(prefix - 4, true);
    if (metaLength === 0) break; // end-of-stream marker
    if (metaLength < 0 || pos + prefix + metaLength > size)
      throw new IpcLayoutError(
        pos,
        `message metadata of ${metaLength} bytes runs past the end of the ${size}-byte file`,
      );
    const meta = await src.read(pos + prefix, metaLength);
    const m = checkMessage(meta, pos, size - pos - prefix - metaLength);
    if (schema === null) schema = readSchema(meta, pos);
    else if (m.type === HEADER_RECORD_BATCH) {
      checkNodes(schema, meta, pos);
      batches.push({ offset: pos, rows: m.rows });
      rows += m.rows;
    } else if (m.type === HEADER_SCHEMA) throw new IpcLayoutError(pos, 'a second schema message');
    pos += prefix + metaLength + m.bodyLength;
  }
  if (schema === null) throw new IpcLayoutError(0, 'no schema message');
  return { format: 'stream', schema, batches, rows, size };
};

/** What the first bytes say the file is. @internal */
export const sniffIpcFormat = (head: Uint8Array): 'file' | 'stream' | null => {
  if (head.length >= 6 && latin1(head.subarray(0, 6)) === MAGIC) return 'file';
  if (head.length >= 8) {
    const view = new DataView(head.buffer, head.byteOffset, 8);
    const first = view.getInt32(0, true);
    if (first === -1 && view.getInt32(4, true) > 0) return 'stream';
  }
  return null;
};

/**
 * The schema, record-batch blocks and rows of an Arrow IPC File or Stream, read from the footer (File) or the message
 * headers (Stream) only: no body is read or decompressed, and every length and offset is checked against the file's
 * real size before anything is allocated for it. Accepts any alignment (arrow-rs pads the magic to 64 bytes).
 * @throws IpcLayoutError for a file that is not sound Arrow IPC.
 * @public
 */
export const readIpcLayout = async (src: ByteSource): Promise<IpcLayout> => {
  if (src.size < 8) throw new IpcLayoutError(src.size, `file of ${src.size} bytes is too short for Arrow IPC`);
  const format = sniffIpcFormat(await src.read(0, 8));
  if (format === 'file') {
    if (src.size < 8 + TRAILER) throw new IpcLayoutError(src.size, 'Arrow IPC File too short for a footer');
    return readFileLayout(src);
  }
  if (format === 'stream') return readStreamLayout(src);
  throw new IpcLayoutError(0, 'neither Arrow IPC File (ARROW1 magic) nor Stream (0xFFFFFFFF continuation marker)');
};

/** `readIpcLayout` over a file on disk through positioned reads: footer and headers only. @public */
export const readIpcFileLayout = (path: string): Promise<IpcLayout & { readonly bytesRead: number }> =>
  withFileByteSource(path, async (src) => ({ ...(await readIpcLayout(src)), bytesRead: src.bytesRead }));
