import { writeFileAtomic } from '../files/atomic-file';
import { NEW_FILE } from '../files/output-kinds';
import {
  CompressionType,
  Field,
  Float32,
  LargeList,
  RecordBatch,
  Schema,
  Struct,
  Uint64,
  Uint8,
  makeData,
  type Data,
  type DataType,
} from 'apache-arrow';
import type { StageColumns } from '@maou/bench-domain';
import { ensureArrowCodecs } from './arrow-codecs';
import { SpecFileWriter, SpecStreamWriter } from './ipc-writers';

/** How to write an IPC file: container format, body compression and rows per record batch. @public */
export interface ArrowWriteOptions {
  readonly format?: 'file' | 'stream';
  readonly compression?: 'lz4' | 'none';
  /** rows per record batch; default: one batch for the whole file, as maou writes */
  readonly batchRows?: number;
}

const offsets = (count: number, stride: number): BigInt64Array => {
  const o = new BigInt64Array(count + 1);
  for (let i = 0; i <= count; i++) o[i] = BigInt(i * stride);
  return o;
};

/** Wraps flat leaf data as `large_list` levels from the innermost dimension outwards (Polars' layout). @internal */
export const nestLargeList = (leaf: Data, rows: number, shape: readonly number[]): Data => {
  let data: Data = leaf;
  for (let d = shape.length - 1; d >= 0; d--) {
    const outer = shape.slice(0, d).reduce((a, b) => a * b, rows);
    const type: DataType = new LargeList(new Field('item', data.type, true));
    data = makeData({
      type: type as LargeList,
      length: outer,
      nullCount: 0,
      valueOffsets: offsets(outer, shape[d] ?? 1),
      child: data,
    });
  }
  return data;
};

const leafU8 = (values: Uint8Array): Data =>
  makeData({ type: new Uint8(), length: values.length, nullCount: 0, data: values });
const leafF32 = (values: Float32Array): Data =>
  makeData({ type: new Float32(), length: values.length, nullCount: 0, data: values });

/** The columns of one stage file as Arrow data with maou's on-disk types (spec §2.4/§2.7/§2.8). @internal */
export const stageColumnData = (
  c: StageColumns,
  ids: BigUint64Array,
  start: number,
  rows: number,
): [string, Data][] => {
  const u8 = (a: Uint8Array, per: number): Data => leafU8(a.subarray(start * per, (start + rows) * per));
  const cols: [string, Data][] = [
    ['id', makeData({ type: new Uint64(), length: rows, nullCount: 0, data: ids.subarray(start, start + rows) })],
    ['boardIdPositions', nestLargeList(u8(c.boardIdPositions, 81), rows, [9, 9])],
    ['piecesInHand', nestLargeList(u8(c.piecesInHand, 14), rows, [14])],
  ];
  if (c.stage === 1) cols.push(['reachableSquares', nestLargeList(u8(c.reachableSquares, 81), rows, [9, 9])]);
  if (c.stage === 2) cols.push(['legalMovesLabel', nestLargeList(u8(c.legalMovesLabel, 1496), rows, [1496])]);
  if (c.stage === 3) {
    cols.push([
      'moveLabel',
      nestLargeList(leafF32(c.moveLabel.subarray(start * 1496, (start + rows) * 1496)), rows, [1496]),
    ]);
    // maou HEAD's order: moveLabel, moveWinRate, bestMoveWinRate, resultValue.
    if (c.moveWinRate)
      cols.push([
        'moveWinRate',
        nestLargeList(leafF32(c.moveWinRate.subarray(start * 1496, (start + rows) * 1496)), rows, [1496]),
      ]);
    if (c.bestMoveWinRate) cols.push(['bestMoveWinRate', leafF32(c.bestMoveWinRate.subarray(start, start + rows))]);
    cols.push(['resultValue', leafF32(c.resultValue.subarray(start, start + rows))]);
  }
  return cols;
};

/** Builds record batches of at most `batchRows` rows from a column factory. @internal */
export const buildBatches = (
  rows: number,
  batchRows: number,
  columns: (start: number, n: number) => [string, Data][],
): RecordBatch[] => {
  const batches: RecordBatch[] = [];
  for (let start = 0; start < rows || (rows === 0 && batches.length === 0); start += batchRows) {
    const n = Math.min(batchRows, rows - start);
    const cols = columns(start, n);
    const schema = new Schema(cols.map(([name, d]) => new Field(name, d.type, true)));
    const struct = makeData({
      type: new Struct(schema.fields),
      length: n,
      nullCount: 0,
      children: cols.map(([, d]) => d),
    });
    batches.push(new RecordBatch(schema, struct));
  }
  return batches;
};

/** Serialises record batches as Arrow IPC bytes. @public */
export const encodeArrowIpc = (batches: readonly RecordBatch[], options: ArrowWriteOptions = {}): Uint8Array => {
  ensureArrowCodecs();
  const compressionType = options.compression === 'lz4' ? CompressionType.LZ4_FRAME : null;
  const writer =
    options.format === 'stream' ? new SpecStreamWriter({ compressionType }) : new SpecFileWriter({ compressionType });
  for (const b of batches) writer.write(b);
  writer.finish();
  return writer.toUint8Array(true);
};

/** Stage 1/2/3 columns as the bytes of a `.feather` file readable by maou and pyarrow. @public */
export const encodeStageFeather = (
  columns: StageColumns,
  ids: BigUint64Array,
  options: ArrowWriteOptions = {},
): Uint8Array =>
  encodeArrowIpc(
    buildBatches(columns.rows, options.batchRows ?? Math.max(columns.rows, 1), (s, n) =>
      stageColumnData(columns, ids, s, n),
    ),
    options,
  );

/**
 * Writes Stage 1/2/3 columns as a new `.feather` file readable by maou and pyarrow (the path must be new or empty).
 * @public
 */
export const writeStageFeather = async (
  path: string,
  columns: StageColumns,
  ids: BigUint64Array,
  options: ArrowWriteOptions = {},
): Promise<number> => {
  const bytes = encodeStageFeather(columns, ids, options);
  await writeFileAtomic(path, bytes, NEW_FILE);
  return bytes.length;
};
