import {
  DateDay,
  Int16,
  Int8,
  LargeBinary,
  LargeUtf8,
  Uint16,
  makeData,
  vectorFromArray,
  type Data,
} from 'apache-arrow';
import { err, ok, validateHcpeColumns, type HcpeColumns, type Result } from '@maou/bench-domain';
import { copyInto, flattenColumn } from './column-flatten';
import { DataFileError } from './data-file-error';
import { checkValueBuffers } from './value-buffers';
import type { ArrowBatches } from './feather-reader';
import { buildBatches, encodeArrowIpc, nestLargeList, type ArrowWriteOptions } from './feather-writer';
import { writeFileAtomic } from '../files/atomic-file';
import { NEW_FILE } from '../files/output-kinds';

/**
 * The values of a variable-width column, one batch at a time: its offsets or views are checked before apache-arrow's
 * lazy getter reads them, and anything the getter still throws becomes a DataFileError naming the column and row.
 */
const columnValues = <T>(
  file: ArrowBatches,
  index: number,
  name: string,
  take: (v: unknown, row: number) => DataFileError | T,
): Result<T[], DataFileError> => {
  const out: T[] = [];
  for (const [b, batch] of file.batches.entries()) {
    const data = batch.data.children[index] as Data | undefined;
    const vec = batch.getChildAt(index);
    if (!data || !vec)
      return err(new DataFileError({ path: file.path, column: name, batch: b }, 'column data missing'));
    const issue = checkValueBuffers(data);
    if (issue)
      return err(
        new DataFileError({ path: file.path, column: name, batch: b, row: out.length + issue.row }, issue.message),
      );
    for (let i = 0; i < batch.numRows; i++) {
      let v: unknown;
      try {
        v = vec.get(i);
      } catch (e) {
        return err(
          new DataFileError(
            { path: file.path, column: name, batch: b, row: out.length },
            `cannot decode value: ${e instanceof Error ? e.message : String(e)}`,
          ),
        );
      }
      const taken = take(v, out.length);
      if (taken instanceof DataFileError) return err(taken);
      out.push(taken);
    }
  }
  return ok(out);
};

const byteRows = (file: ArrowBatches, index: number, width: number): Result<Uint8Array, DataFileError> => {
  const rows = columnValues(file, index, 'hcp', (v, row) =>
    v instanceof Uint8Array && v.length === width
      ? v
      : new DataFileError(
          { path: file.path, column: 'hcp', row },
          `expected ${width} bytes, got ${v instanceof Uint8Array ? `${v.length} bytes` : `a ${v === null ? 'null' : typeof v} value`}`,
        ),
  );
  if (!rows.ok) return rows;
  const out = new Uint8Array(file.rows * width);
  rows.value.forEach((v, row) => out.set(v, row * width));
  return ok(out);
};

const stringRows = (file: ArrowBatches, index: number, name: string): Result<string[], DataFileError> =>
  columnValues(file, index, name, (v, row) =>
    typeof v === 'string' ? v : new DataFileError({ path: file.path, column: name, row }, 'expected a string'),
  );

/** Decodes HCPE record batches (spec §2.1) into validated columns. @public */
export const decodeHcpeBatches = (file: ArrowBatches): Result<HcpeColumns, DataFileError> => {
  const idx = (name: string): number => file.schema.fields.findIndex((f) => f.name === name);
  const missing = [
    'hcp',
    'eval',
    'bestMove16',
    'gameResult',
    'id',
    'partitioningKey',
    'ratings',
    'endgameStatus',
    'moves',
  ].find((n) => idx(n) < 0);
  if (missing) return err(new DataFileError({ path: file.path, column: missing }, 'missing column'));
  const numeric = <T extends Int16Array | Int8Array | Int32Array | Uint16Array>(
    name: string,
    out: T,
    type: 'int16' | 'int8' | 'date32' | 'uint16',
    shape: number[] = [],
  ): Result<T, DataFileError> => {
    let row = 0;
    const per = shape.reduce((a, b) => a * b, 1);
    for (const [b, batch] of file.batches.entries()) {
      const data = batch.data.children[idx(name)] as Data;
      const issue = flattenColumn(data, shape, type, copyInto(out, row * per), 0, batch.numRows);
      if (issue)
        return err(new DataFileError({ path: file.path, column: name, batch: b, row: row + issue.row }, issue.message));
      row += batch.numRows;
    }
    return ok(out);
  };
  const n = file.rows;
  const hcp = byteRows(file, idx('hcp'), 32);
  const evalCol = numeric('eval', new Int16Array(n), 'int16');
  const best = numeric('bestMove16', new Int16Array(n), 'int16');
  const result = numeric('gameResult', new Int8Array(n), 'int8');
  const id = stringRows(file, idx('id'), 'id');
  const key = numeric('partitioningKey', new Int32Array(n), 'date32');
  const ratings = numeric('ratings', new Uint16Array(n * 2), 'uint16', [2]);
  const status = stringRows(file, idx('endgameStatus'), 'endgameStatus');
  const moves = numeric('moves', new Int16Array(n), 'int16');
  const failed = [hcp, evalCol, best, result, id, key, ratings, status, moves].find((r) => !r.ok);
  if (failed && !failed.ok) return err(failed.error);
  if (!(hcp.ok && evalCol.ok && best.ok && result.ok && id.ok && key.ok && ratings.ok && status.ok && moves.ok))
    throw new Error('unreachable');
  const cols: HcpeColumns = {
    rows: n,
    hcp: hcp.value,
    eval: evalCol.value,
    bestMove16: best.value,
    gameResult: result.value,
    id: id.value,
    partitioningKey: key.value,
    ratings: ratings.value,
    endgameStatus: status.value,
    moves: moves.value,
  };
  const valid = validateHcpeColumns(cols);
  return valid.ok
    ? ok(cols)
    : err(
        new DataFileError({ path: file.path, column: valid.error.column, row: valid.error.row }, valid.error.message),
      );
};

const binaryData = (bytes: Uint8Array, rows: number, width: number): Data => {
  const offsets = new BigInt64Array(rows + 1);
  for (let i = 0; i <= rows; i++) offsets[i] = BigInt(i * width);
  return makeData({ type: new LargeBinary(), length: rows, nullCount: 0, valueOffsets: offsets, data: bytes });
};

/** HCPE columns as Arrow data with maou's types (large_binary, large_string, date32, large_list<uint16>). @internal */
export const hcpeColumnData = (c: HcpeColumns, start: number, n: number): [string, Data][] => [
  ['hcp', binaryData(c.hcp.subarray(start * 32, (start + n) * 32), n, 32)],
  ['eval', makeData({ type: new Int16(), length: n, nullCount: 0, data: c.eval.subarray(start, start + n) })],
  [
    'bestMove16',
    makeData({ type: new Int16(), length: n, nullCount: 0, data: c.bestMove16.subarray(start, start + n) }),
  ],
  [
    'gameResult',
    makeData({ type: new Int8(), length: n, nullCount: 0, data: c.gameResult.subarray(start, start + n) }),
  ],
  ['id', vectorFromArray(c.id.slice(start, start + n), new LargeUtf8()).data[0] as Data],
  [
    'partitioningKey',
    makeData({ type: new DateDay(), length: n, nullCount: 0, data: c.partitioningKey.subarray(start, start + n) }),
  ],
  [
    'ratings',
    nestLargeList(
      makeData({
        type: new Uint16(),
        length: n * 2,
        nullCount: 0,
        data: c.ratings.subarray(start * 2, (start + n) * 2),
      }),
      n,
      [2],
    ),
  ],
  ['endgameStatus', vectorFromArray(c.endgameStatus.slice(start, start + n), new LargeUtf8()).data[0] as Data],
  ['moves', makeData({ type: new Int16(), length: n, nullCount: 0, data: c.moves.subarray(start, start + n) })],
];

/** Writes HCPE columns as a new `.feather` file (an existing one is never replaced). @public */
export const writeHcpeFeather = async (
  path: string,
  columns: HcpeColumns,
  options: ArrowWriteOptions = {},
): Promise<number> => {
  const bytes = encodeArrowIpc(
    buildBatches(columns.rows, options.batchRows ?? Math.max(columns.rows, 1), (s, n) => hcpeColumnData(columns, s, n)),
    options,
  );
  await writeFileAtomic(path, bytes, NEW_FILE);
  return bytes.length;
};
