import type { RecordBatch } from 'apache-arrow';
import {
  err, ok, stageSchema, validateStageColumns, valuesPerRow,
  type ColumnSpec, type Result, type Stage, type StageColumns,
} from '@maou/bench-domain';
import { flattenColumn } from './column-flatten';
import { DataFileError } from './data-file-error';
import type { ArrowBatches } from './feather-reader';

type Flat = Uint8Array | Float32Array;

const decodeColumn = (file: ArrowBatches, spec: ColumnSpec): Result<Flat, DataFileError> => {
  const path = file.path;
  const index = file.schema.fields.findIndex((f) => f.name === spec.name);
  if (index < 0) return err(new DataFileError({ path, column: spec.name }, `missing column (has: ${file.schema.fields.map((f) => f.name).join(', ')})`));
  const per = valuesPerRow(spec);
  const out: Flat = spec.type === 'float32' ? new Float32Array(file.rows * per) : new Uint8Array(file.rows * per);
  let row = 0;
  for (let b = 0; b < file.batches.length; b++) {
    const batch = file.batches[b] as RecordBatch;
    const data = batch.data.children[index];
    if (!data) return err(new DataFileError({ path, column: spec.name, batch: b }, 'column data missing from record batch'));
    const issue = flattenColumn(data, spec.shape, spec.type, out, row * per, 0, batch.numRows);
    if (issue) return err(new DataFileError({ path, column: spec.name, batch: b, row: row + issue.row }, issue.message));
    row += batch.numRows;
  }
  return ok(out);
};

/** Decodes the record batches of a Stage 1/2/3 file into validated StageColumns. @public */
export const decodeStageBatches = (file: ArrowBatches, stage: Stage): Result<StageColumns, DataFileError> => {
  const cols: Record<string, Flat> = {};
  for (const spec of stageSchema(stage).columns) {
    if (spec.name === 'id') continue; // a dedup key only; loaders drop it
    const r = decodeColumn(file, spec);
    if (!r.ok) return r;
    cols[spec.name] = r.value;
  }
  const base = { rows: file.rows, boardIdPositions: cols.boardIdPositions as Uint8Array, piecesInHand: cols.piecesInHand as Uint8Array };
  const columns: StageColumns =
    stage === 1 ? { ...base, stage, reachableSquares: cols.reachableSquares as Uint8Array }
      : stage === 2 ? { ...base, stage, legalMovesLabel: cols.legalMovesLabel as Uint8Array }
        : { ...base, stage, moveLabel: cols.moveLabel as Float32Array, resultValue: cols.resultValue as Float32Array };
  const valid = validateStageColumns(columns);
  if (!valid.ok) return err(new DataFileError({ path: file.path, column: valid.error.column, row: valid.error.row }, valid.error.message));
  return ok(columns);
};
