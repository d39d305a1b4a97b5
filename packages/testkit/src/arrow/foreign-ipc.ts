import { spawnSync } from 'node:child_process';
import type * as Polars from 'nodejs-polars';

/**
 * Test-only: Arrow IPC files as other writers in maou's world lay them out, made from an IPC File we wrote, so specs
 * can check that every layout decodes to the same rows. Polars and pyarrow files are written by those libraries.
 */

const ALIGN = 64;
const pad = (n: number): number => (ALIGN - (n % ALIGN)) % ALIGN;

/** Absolute position of field `index` of the FlatBuffers table at `table`, or null. */
const fieldAt = (v: DataView, table: number, index: number): number | null => {
  const vtable = table - v.getInt32(table, true);
  const at = 4 + 2 * index;
  if (at >= v.getUint16(vtable, true)) return null;
  const off = v.getUint16(vtable + at, true);
  return off === 0 ? null : table + off;
};

interface Block {
  offset: number;
  meta: number;
  body: number;
  pos: number;
}

/** The Block structs (offset i64, metaDataLength i32, pad, bodyLength i64) of footer vector `index`, with their positions. */
const blocksOf = (footer: DataView, index: number): Block[] => {
  const root = footer.getUint32(0, true);
  const f = fieldAt(footer, root, index);
  if (f === null) return [];
  const vec = f + footer.getUint32(f, true);
  const n = footer.getUint32(vec, true);
  return Array.from({ length: n }, (_, i) => {
    const pos = vec + 4 + 24 * i;
    return {
      offset: Number(footer.getBigInt64(pos, true)),
      meta: footer.getInt32(pos + 8, true),
      body: Number(footer.getBigInt64(pos + 16, true)),
      pos,
    };
  });
};

/** Frames one message as arrow-rs does: continuation, metadata padded so prefix + metadata ends on 64, body padded to 64. */
const frame = (flatbuffer: Uint8Array, body: Uint8Array): { bytes: Uint8Array; meta: number; body: number } => {
  const metaLen = flatbuffer.length + pad(8 + flatbuffer.length);
  const bodyLen = body.length + pad(body.length);
  const out = new Uint8Array(8 + metaLen + bodyLen);
  const v = new DataView(out.buffer);
  v.setInt32(0, -1, true);
  v.setInt32(4, metaLen, true);
  out.set(flatbuffer, 8);
  // The message's own bodyLength (Message field 3) must count the padding, as arrow-rs's does.
  const mv = new DataView(out.buffer, 8, metaLen);
  const bodyField = fieldAt(mv, mv.getUint32(0, true), 3);
  if (bodyField !== null) mv.setBigInt64(bodyField, BigInt(bodyLen), true);
  else if (bodyLen > 0) throw new Error('message without a bodyLength field');
  out.set(body, 8 + metaLen);
  return { bytes: out, meta: 8 + metaLen, body: bodyLen };
};

const flatbufferAt = (bytes: Uint8Array, offset: number): Uint8Array => {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  const prefix = v.getInt32(offset, true) === -1 ? 8 : 4;
  return bytes.subarray(offset + prefix, offset + prefix + v.getInt32(offset + prefix - 4, true));
};

/**
 * Rewrites an IPC File into arrow-rs `FileWriter`'s framing with its default 64-byte alignment (arrow-ipc writer.rs,
 * `try_new_with_options` and `write_message`): `ARROW1` then zero padding to byte 64, the schema message, every message
 * with metadata and body padded to 64-byte boundaries (the message's bodyLength counting the padding), an end-of-stream
 * marker, then the footer with the new block offsets. Buffers inside a body keep the source writer's offsets.
 */
export const toArrowRsLayout = (file: Uint8Array): Uint8Array => {
  const v = new DataView(file.buffer, file.byteOffset, file.length);
  const footerLen = v.getInt32(file.length - 10, true);
  const footerStart = file.length - 10 - footerLen;
  const footer = Uint8Array.from(file.subarray(footerStart, footerStart + footerLen));
  const fv = new DataView(footer.buffer);
  const blocks = [...blocksOf(fv, 2), ...blocksOf(fv, 3)].sort((a, b) => a.offset - b.offset);
  const parts: Uint8Array[] = [new Uint8Array(ALIGN)];
  parts[0]?.set(Buffer.from('ARROW1'));
  let at = ALIGN;
  const schema = frame(flatbufferAt(file, 8), new Uint8Array(0));
  parts.push(schema.bytes);
  at += schema.bytes.length;
  for (const b of blocks) {
    const body = file.subarray(b.offset + b.meta, b.offset + b.meta + b.body);
    const m = frame(flatbufferAt(file, b.offset), body);
    fv.setBigInt64(b.pos, BigInt(at), true);
    fv.setInt32(b.pos + 8, m.meta, true);
    fv.setBigInt64(b.pos + 16, BigInt(m.body), true);
    parts.push(m.bytes);
    at += m.bytes.length;
  }
  const tail = new Uint8Array(8 + footer.length + 10);
  const tv = new DataView(tail.buffer);
  tv.setInt32(0, -1, true); // end-of-stream marker: continuation + zero length
  tail.set(footer, 8);
  tv.setInt32(8 + footer.length, footer.length, true);
  tail.set(Buffer.from('ARROW1'), 12 + footer.length);
  parts.push(tail);
  return Buffer.concat(parts);
};

/** Options of the Polars writer (nodejs-polars, the Rust Polars IPC writer). */
export interface PolarsWrite {
  readonly compression: 'lz4' | 'zstd' | 'uncompressed';
  readonly format: 'file' | 'stream';
  /** rows per record batch: the frame is written as chunks of this many rows */
  readonly batchRows?: number;
}

/** Writes `path` with Polars from the rows of an IPC file we wrote (Polars reads it, then writes its own layout). */
export const writeWithPolars = (source: Uint8Array, path: string, options: PolarsWrite): void => {
  // Loaded lazily: a dev dependency with a native binary, needed only by the specs that write Polars files.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const pl = require('nodejs-polars') as typeof Polars;
  let df = pl.readIPC(Buffer.from(source));
  if (options.batchRows) {
    const chunks = [];
    for (let start = 0; start < df.height; start += options.batchRows)
      chunks.push(df.slice(start, Math.min(options.batchRows, df.height - start)));
    df = pl.concat(chunks, { rechunk: false, how: 'vertical' });
  }
  if (options.format === 'file') df.writeIPC(path, { compression: options.compression });
  else df.writeIPCStream(path, { compression: options.compression });
};

/** Options of the pyarrow writer. */
export interface PyarrowWrite {
  readonly compression: 'lz4' | 'zstd' | 'none';
  readonly format: 'file' | 'stream';
  readonly listType: 'list' | 'large_list' | 'fixed_size_list';
  readonly batchRows?: number;
  /** float32 columns added to every row (HEAD's Stage 3 adds moveWinRate, bestMoveWinRate) */
  readonly extraColumns?: boolean;
}

const PYARROW_WRITER = `
import sys, json, pyarrow as pa, pyarrow.ipc as ipc
src, dst, o = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
t = ipc.open_file(src).read_all().combine_chunks()
def relist(typ, arr):
    if pa.types.is_list(arr.type) or pa.types.is_large_list(arr.type) or pa.types.is_fixed_size_list(arr.type):
        flat = arr.flatten()
        inner = relist(typ, flat)
        n = len(flat) // len(arr) if len(arr) else 0
        if typ == 'fixed_size_list': return pa.FixedSizeListArray.from_arrays(inner, n)
        offsets = pa.array([i * n for i in range(len(arr) + 1)], pa.int64() if typ == 'large_list' else pa.int32())
        return (pa.LargeListArray if typ == 'large_list' else pa.ListArray).from_arrays(offsets, inner)
    return arr
cols = {name: relist(o['listType'], t.column(name).combine_chunks()) for name in t.column_names}
if o.get('extraColumns'):
    n = t.num_rows
    cols['moveWinRate'] = pa.FixedSizeListArray.from_arrays(pa.array([0.5] * (n * 1496), pa.float32()), 1496)
    cols['bestMoveWinRate'] = pa.array([0.25] * n, pa.float32())
table = pa.table(cols)
opts = ipc.IpcWriteOptions(compression=None if o['compression'] == 'none' else o['compression'])
with pa.OSFile(dst, 'wb') as sink:
    w = (ipc.new_file if o['format'] == 'file' else ipc.new_stream)(sink, table.schema, options=opts)
    w.write_table(table, max_chunksize=o.get('batchRows') or None)
    w.close()
`;

/** Writes `path` with pyarrow from the rows of an IPC File we wrote. Throws when python3 or pyarrow is missing. */
export const writeWithPyarrow = (sourcePath: string, path: string, options: PyarrowWrite): void => {
  const r = spawnSync('python3', ['-c', PYARROW_WRITER, sourcePath, path, JSON.stringify(options)], {
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`pyarrow writer failed: ${r.stderr || r.error?.message}`);
};
