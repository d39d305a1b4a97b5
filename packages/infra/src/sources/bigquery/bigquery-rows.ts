import {
  err,
  ok,
  STAGE3_WIN_RATE_COLUMNS,
  stageColumnsFrom,
  stageSchema,
  valuesPerRow,
  type ColumnSpec,
  type Result,
  type Stage,
  type StageColumns,
} from '@maou/bench-domain';
import type { CloudSourceError } from '../shared/cloud-source-error';

type Flat = Uint8Array | Float32Array;

/**
 * Copies one cell into `out` at row `r`. A cell is a REPEATED INTEGER/FLOAT array (flattened row-major,
 * e.g. 81 values for the 9×9 board), a BYTES value (one byte per uint8, or little-endian float32), or a scalar.
 * Returns a problem description, or null.
 */
const copyCell = (cell: unknown, spec: ColumnSpec, out: Flat, r: number): string | null => {
  const per = valuesPerRow(spec);
  const at = r * per;
  if (per === 1 && typeof cell === 'number') {
    out[at] = cell;
    return null;
  }
  if (Array.isArray(cell)) {
    if (cell.length !== per) return `has ${cell.length} values, expected ${per}`;
    for (let i = 0; i < per; i += 1) {
      const v = cell[i];
      if (typeof v !== 'number') return `value ${i} is ${typeof v}, expected a number`;
      out[at + i] = v;
    }
    return null;
  }
  if (cell instanceof Uint8Array) {
    const width = spec.type === 'float32' ? 4 : 1;
    if (cell.byteLength !== per * width) return `has ${cell.byteLength} bytes, expected ${per * width}`;
    const src = width === 4 ? new Float32Array(new Uint8Array(cell).buffer) : cell;
    out.set(src, at);
    return null;
  }
  return cell === null || cell === undefined ? 'is null' : `has unsupported type ${typeof cell}`;
};

/**
 * Turns BigQuery result rows into the columns of one stage; `firstRow` numbers rows in error messages
 * relative to the whole table or group.
 * @internal
 */
export const rowsToStageColumns = (
  rows: readonly Record<string, unknown>[],
  stage: Stage,
  where: string,
  firstRow: number,
): Result<StageColumns, CloudSourceError> => {
  const cols: Record<string, Flat> = {};
  // maou HEAD's win-rate columns, when the table has them.
  const optional = stage === 3 ? STAGE3_WIN_RATE_COLUMNS.filter((c) => rows.length > 0 && c.name in rows[0]!) : [];
  for (const spec of [...stageSchema(stage).columns, ...optional]) {
    if (spec.name === 'id') continue;
    const per = valuesPerRow(spec);
    const out: Flat = spec.type === 'float32' ? new Float32Array(rows.length * per) : new Uint8Array(rows.length * per);
    for (let r = 0; r < rows.length; r += 1) {
      const issue = copyCell(rows[r][spec.name], spec, out, r);
      if (issue !== null)
        return err({ kind: 'transfer', message: `${where}, column ${spec.name}, row ${firstRow + r}: ${issue}` });
    }
    cols[spec.name] = out;
  }
  return ok(stageColumnsFrom(stage, rows.length, cols));
};
