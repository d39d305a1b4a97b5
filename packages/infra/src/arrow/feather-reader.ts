import { readFile } from 'node:fs/promises';
import { RecordBatchReader, type RecordBatch, type Schema } from 'apache-arrow';
import { err, ok, type Result } from '@maou/bench-domain';
import { ensureArrowCodecs, withDecodeBudget } from './arrow-codecs';
import { loadZstd } from './zstd-frame';
import { memoryByteSource } from './byte-source';
import { DataFileError } from './data-file-error';
import { IpcLayoutError, IpcLimitError, readIpcLayout, type IpcLayout } from './ipc-layout';

/** The record batches of one Arrow IPC file (File or Stream format). @public */
export interface ArrowBatches {
  readonly path: string;
  readonly schema: Schema;
  readonly batches: readonly RecordBatch[];
  readonly rows: number;
  readonly bytes: number;
}

/**
 * A check of each record batch as it is decoded (`rowsBefore`: rows of the batches before it); an error stops the
 * decoding there, so a file is refused in the memory and time of its first bad batch.
 * @public
 */
export type BatchCheck = (
  schema: Schema,
  batch: RecordBatch,
  index: number,
  rowsBefore: number,
) => DataFileError | null;

const describe = (layout: IpcLayout): string => `Arrow IPC ${layout.format === 'file' ? 'File' : 'Stream'}`;

// What one row of a file may decompress to: the widest maou record (Stage 3 with both win-rate columns: two 1,496-wide
// float32 lists, the board, hands and id) is about 12 KB, so 64 KiB leaves room for any real file while a lying length
// or a decompression bomb fails before memory grows. The slack covers schema-level buffers of tiny files.
const MAX_DECODED_BYTES_PER_ROW = 64 * 1024;
const BUDGET_SLACK_BYTES = 1 << 20;

/**
 * Parses Arrow IPC bytes (all batches, any supported body compression). The layout (footer or message headers) is
 * checked first, so apache-arrow only ever decodes messages whose lengths fit the file; its batches must then agree
 * with the layout's count and rows.
 * @public
 */
export const parseArrowIpc = async (
  path: string,
  bytes: Uint8Array,
  check?: BatchCheck,
): Promise<Result<ArrowBatches, DataFileError>> => {
  ensureArrowCodecs();
  await loadZstd();
  let layout: IpcLayout;
  try {
    layout = await readIpcLayout(memoryByteSource(bytes));
  } catch (e) {
    if (e instanceof IpcLayoutError) {
      const what =
        e instanceof IpcLimitError ? 'beyond a limit of this reader (not damaged)' : 'invalid Arrow IPC structure';
      return err(new DataFileError({ path, byteOffset: e.byteOffset }, `${what}: ${e.message}`));
    }
    throw e;
  }
  let batchIndex = 0;
  const decodeBatches = (): Result<ArrowBatches, DataFileError> => {
    const reader = RecordBatchReader.from(bytes);
    reader.open();
    const batches: RecordBatch[] = [];
    let rows = 0;
    const add = (batch: RecordBatch): DataFileError | null => {
      const issue = check?.(layout.schema, batch, batchIndex, rows) ?? null;
      batches.push(batch);
      rows += batch.numRows;
      batchIndex++;
      return issue;
    };
    // File: batches by footer index. apache-arrow's iterator re-reads a block forever when it holds no record batch.
    if (reader.isFile()) {
      for (let i = 0; i < layout.batches.length; i++) {
        const batch = reader.readRecordBatch(i);
        if (!batch)
          return err(
            new DataFileError(
              { path, batch: i, byteOffset: layout.batches[i]?.offset },
              'footer block holds no record batch',
            ),
          );
        const issue = add(batch);
        if (issue) return err(issue);
      }
    } else {
      for (const batch of reader) {
        const issue = add(batch);
        if (issue) return err(issue);
      }
    }
    if (batches.length !== layout.batches.length || rows !== layout.rows) {
      return err(
        new DataFileError(
          { path },
          `${describe(layout)} lists ${layout.batches.length} record batch(es) of ${layout.rows} rows, but ${batches.length} of ${rows} rows decode`,
        ),
      );
    }
    return ok({ path, schema: layout.schema, batches, rows, bytes: bytes.length });
  };
  const budget = layout.rows * MAX_DECODED_BYTES_PER_ROW + BUDGET_SLACK_BYTES;
  try {
    return withDecodeBudget(
      budget,
      `${layout.rows} rows at ${MAX_DECODED_BYTES_PER_ROW} bytes each, plus ${BUDGET_SLACK_BYTES}`,
      () => decodeBatches(),
    );
  } catch (e) {
    const detail = e instanceof Error ? e.message : String(e);
    return err(new DataFileError({ path, batch: batchIndex }, `invalid ${describe(layout)} data: ${detail}`));
  }
};

/** Reads and parses one `.feather` / `.arrow` file. @public */
export const readArrowFile = async (path: string, check?: BatchCheck): Promise<Result<ArrowBatches, DataFileError>> => {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (e) {
    return err(new DataFileError({ path }, `cannot read file: ${e instanceof Error ? e.message : String(e)}`));
  }
  return parseArrowIpc(path, new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length), check);
};
