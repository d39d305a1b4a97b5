import { readFile } from 'node:fs/promises';
import { RecordBatchReader, type RecordBatch, type Schema } from 'apache-arrow';
import { err, ok, type Result } from '@maou/bench-domain';
import { ensureArrowCodecs } from './arrow-codecs';
import { DataFileError } from './data-file-error';
import { preflightIpc } from './ipc-preflight';

/** The record batches of one Arrow IPC file (File or Stream format). @public */
export interface ArrowBatches {
  readonly path: string;
  readonly schema: Schema;
  readonly batches: readonly RecordBatch[];
  readonly rows: number;
  readonly bytes: number;
}

const FILE_MAGIC = Buffer.from('ARROW1');

const checkFraming = (path: string, bytes: Uint8Array): DataFileError | null => {
  if (bytes.length < 8) return new DataFileError({ path, byteOffset: bytes.length }, `file of ${bytes.length} bytes is too short for Arrow IPC`);
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, 6);
  if (head.equals(FILE_MAGIC)) {
    const tail = Buffer.from(bytes.buffer, bytes.byteOffset + bytes.length - 6, 6);
    if (!tail.equals(FILE_MAGIC)) return new DataFileError({ path, byteOffset: bytes.length }, 'Arrow IPC File without trailing ARROW1 magic (truncated?)');
  }
  return null;
};

/** Parses Arrow IPC bytes (all batches, any supported body compression). @public */
export const parseArrowIpc = (path: string, bytes: Uint8Array): Result<ArrowBatches, DataFileError> => {
  ensureArrowCodecs();
  const framing = checkFraming(path, bytes);
  if (framing) return err(framing);
  const issue = preflightIpc(bytes);
  if (issue) return err(new DataFileError({ path, byteOffset: issue.byteOffset }, `invalid Arrow IPC structure: ${issue.message}`));
  let batchIndex = 0;
  try {
    const reader = RecordBatchReader.from(bytes);
    reader.open();
    // Captured before iterating: an auto-destroying reader drops its schema once exhausted.
    const schema = reader.schema;
    const batches: RecordBatch[] = [];
    let rows = 0;
    for (const batch of reader) {
      batches.push(batch);
      rows += batch.numRows;
      batchIndex++;
    }
    if (!schema) return err(new DataFileError({ path, byteOffset: 0 }, 'no Arrow schema message'));
    return ok({ path, schema, batches, rows, bytes: bytes.length });
  } catch (e) {
    const detail = e instanceof Error ? e.message : String(e);
    return err(new DataFileError({ path, batch: batchIndex }, `invalid Arrow IPC data: ${detail}`));
  }
};

/** Reads and parses one `.feather` / `.arrow` file. @public */
export const readArrowFile = async (path: string): Promise<Result<ArrowBatches, DataFileError>> => {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (e) {
    return err(new DataFileError({ path }, `cannot read file: ${e instanceof Error ? e.message : String(e)}`));
  }
  return parseArrowIpc(path, new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length));
};
