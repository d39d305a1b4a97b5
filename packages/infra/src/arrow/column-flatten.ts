import { DataType, type Data } from 'apache-arrow';
import type { ColumnType } from '@maou/bench-domain';

/** A problem inside one column, located by its top-level row. @internal */
export interface ColumnIssue {
  readonly row: number;
  readonly message: string;
}

/** Typed arrays a column can be flattened into. @internal */
export type Out = Uint8Array | Float32Array | Int8Array | Int16Array | Uint16Array | Int32Array | BigUint64Array;

/** Receives the validated leaf run: `values[from, from + count)`. @internal */
export type LeafSink = (values: Out, from: number, count: number) => void;

/** A sink copying the leaf run into `out` at `outPos`. @internal */
export const copyInto =
  (out: Out, outPos: number): LeafSink =>
  (values, from, count) => {
    (out as Float32Array).set(values.subarray(from, from + count) as Float32Array, outPos);
  };

const leafMatches = (type: DataType, expected: ColumnType): boolean => {
  if (expected === 'float32') return DataType.isFloat(type) && (type.precision === 1 || type.precision === 2);
  if (expected === 'date32') return DataType.isDate(type) && type.unit === 0;
  if (!DataType.isInt(type)) return false;
  const widths: Partial<Record<ColumnType, [number, boolean]>> = {
    uint8: [8, false],
    int8: [8, true],
    int16: [16, true],
    uint16: [16, false],
    uint64: [64, false],
  };
  const want = widths[expected];
  return want !== undefined && type.bitWidth === want[0] && type.isSigned === want[1];
};

const firstNull = (data: Data, start: number, count: number): number => {
  if (data.nullCount === 0) return -1;
  for (let i = start; i < start + count; i++) if (!data.getValid(i)) return i;
  return -1;
};

/**
 * Validates entries [start, start + count) of a (nested) list column of fixed `shape` (list lengths, nulls, leaf
 * type) and hands the contiguous leaf run to `sink`. `perRow` = entries of this depth per top-level row.
 * Works on the buffers directly: no per-row objects.
 * @internal
 */
export const flattenColumn = (
  data: Data,
  shape: readonly number[],
  expected: ColumnType,
  sink: LeafSink,
  start = 0,
  count = data.length,
  perRow = 1,
): ColumnIssue | null => {
  const nullAt = firstNull(data, start, count);
  if (nullAt >= 0) return { row: Math.floor(nullAt / perRow), message: 'null value (maou records have no nulls)' };
  const [len, ...inner] = shape;
  if (len === undefined) {
    if (!leafMatches(data.type, expected))
      return { row: 0, message: `expected ${expected} values, found ${String(data.type)}` };
    const values = data.values as Out;
    const from = data.offset + start;
    if (from + count > values.length)
      return {
        row: Math.floor((values.length - data.offset) / perRow),
        message: 'value buffer shorter than its length',
      };
    sink(values, from, count);
    return null;
  }
  const child = data.children[0];
  if (!child) return { row: 0, message: `expected a list of ${len}, found ${String(data.type)}` };
  let childStart: number;
  if (DataType.isFixedSizeList(data.type)) {
    if (data.type.listSize !== len)
      return { row: 0, message: `fixed-size list of ${data.type.listSize}, expected ${len}` };
    childStart = (data.offset + start) * len;
  } else if (DataType.isList(data.type) || DataType.isLargeList(data.type)) {
    const offsets = data.valueOffsets as Int32Array | BigInt64Array;
    const base = data.offset + start;
    if (base + count >= offsets.length)
      return { row: Math.floor(start / perRow), message: 'offsets buffer shorter than its length' };
    childStart = Number(offsets[base]);
    for (let i = 0; i < count; i++) {
      const n = Number(offsets[base + i + 1]) - Number(offsets[base + i]);
      if (n !== len) return { row: Math.floor((start + i) / perRow), message: `list of length ${n}, expected ${len}` };
    }
  } else {
    return { row: 0, message: `expected a list of ${len}, found ${String(data.type)}` };
  }
  if (childStart < 0 || childStart + count * len > child.length)
    return { row: Math.floor(start / perRow), message: `list offsets point past the ${child.length} child values` };
  return flattenColumn(child, inner, expected, sink, childStart, count * len, perRow * len);
};
