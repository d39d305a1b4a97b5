import type { RecordBatch, Schema } from 'apache-arrow';
import {
  err,
  ok,
  recordKindOfColumns,
  STAGE3_WIN_RATE_COLUMNS,
  stageColumnsFrom,
  stageSchema,
  validateStageColumns,
  valuesPerRow,
  wrongRecordKindMessage,
  type ColumnSpec,
  type Result,
  type Stage,
  type StageColumns,
} from '@maou/bench-domain';
import { copyInto, flattenColumn, type Out } from './column-flatten';
import { DataFileError } from './data-file-error';
import type { ArrowBatches, BatchCheck } from './feather-reader';

type Flat = Uint8Array | Float32Array;

/** What a stage's data file must be, for error messages. @internal */
export const expectedStageFile = (stage: Stage): string =>
  `expected an Arrow IPC File or Stream (or .npy) of Stage ${stage} rows with columns ${stageSchema(stage)
    .columns.map((c) => c.name)
    .join(', ')}`;

/** A file's schema must be the stage's; HCPE and other stages are named, with what to run instead. @internal */
export const checkStageSchema = (path: string, schema: Schema, stage: Stage, what: string): DataFileError | null => {
  const names = schema.fields.map((f) => f.name);
  const kind = recordKindOfColumns(names);
  if (kind === `stage${stage}`) {
    // Two columns of one name: which one a reader takes is arbitrary, so neither is.
    const twice = stageSchema(stage).columns.find((c) => names.indexOf(c.name) !== names.lastIndexOf(c.name));
    if (!twice) return null;
    const count = names.filter((n) => n === twice.name).length;
    return new DataFileError(
      { path, column: twice.name },
      `${what} has ${count} columns named ${twice.name} (types ${schema.fields
        .filter((f) => f.name === twice.name)
        .map((f) => String(f.type))
        .join(', ')}); a Stage ${stage} file has each column once`,
    );
  }
  if (kind) return new DataFileError({ path }, `${what} ${wrongRecordKindMessage(kind, stage)}`);
  return new DataFileError(
    { path },
    `${what} with columns ${names.join(', ') || '(none)'} holds unknown records; ${expectedStageFile(stage)}`,
  );
};

const expectedColumn = (spec: ColumnSpec): string =>
  spec.shape.reduceRight<string>((inner, n) => `list of ${n} × ${inner}`, spec.type);

const decodeColumn = (file: ArrowBatches, spec: ColumnSpec): Result<Flat, DataFileError> => {
  const path = file.path;
  const index = file.schema.fields.findIndex((f) => f.name === spec.name);
  if (index < 0)
    return err(
      new DataFileError(
        { path, column: spec.name },
        `missing column (has: ${file.schema.fields.map((f) => f.name).join(', ')})`,
      ),
    );
  const per = valuesPerRow(spec);
  const Kind = spec.type === 'float32' ? Float32Array : Uint8Array;
  // One record batch (how maou writes): hand out a view of the decoded leaf buffer instead of copying it.
  const single = file.batches.length === 1 ? file.batches[0] : undefined;
  let view: Flat | null = null;
  const out: Flat | null = single ? null : new Kind(file.rows * per);
  let row = 0;
  for (let b = 0; b < file.batches.length; b++) {
    const batch = file.batches[b] as RecordBatch;
    const data = batch.data.children[index];
    if (!data)
      return err(new DataFileError({ path, column: spec.name, batch: b }, 'column data missing from record batch'));
    const sink = out
      ? copyInto(out, row * per)
      : (values: Out, from: number, count: number) => {
          view =
            values instanceof Kind
              ? values.subarray(from, from + count)
              : Kind.from(values.subarray(from, from + count) as Float32Array);
        };
    const issue = flattenColumn(data, spec.shape, spec.type, sink, 0, batch.numRows);
    if (issue)
      return err(new DataFileError({ path, column: spec.name, batch: b, row: row + issue.row }, issue.message));
    row += batch.numRows;
  }
  const result = out ?? view ?? new Kind(0);
  return ok(result);
};

const inStage = (stage: Stage, spec: ColumnSpec, detail: string): string =>
  `${detail} (a Stage ${stage} file, whose ${spec.name} must be ${spec.shape.length ? 'a ' : ''}${expectedColumn(spec)})`;

/**
 * Checks each record batch as it is decoded (schema, then every column's shapes, types and nulls), so a hostile file
 * (10 M rows of empty lists) is refused at its first bad batch, in the memory and time of that batch, before the rest
 * is decoded or any column is built. The messages are those of {@link decodeStageBatches}.
 * @public
 */
export const stageBatchCheck =
  (path: string, stage: Stage): BatchCheck =>
  (schema, batch, b, rowsBefore) => {
    if (b === 0) {
      const wrong = checkStageSchema(path, schema, stage, 'Arrow IPC file');
      if (wrong) return wrong;
    }
    for (const spec of stageSchema(stage).columns) {
      if (spec.name === 'id') continue;
      const data = batch.data.children[schema.fields.findIndex((f) => f.name === spec.name)];
      if (!data) continue; // named when the column is built
      const issue = flattenColumn(data, spec.shape, spec.type, () => undefined, 0, batch.numRows);
      if (issue)
        return new DataFileError(
          { path, column: spec.name, batch: b, row: rowsBefore + issue.row },
          inStage(stage, spec, issue.message),
        );
    }
    return null;
  };

/** Decodes the record batches of a Stage 1/2/3 file into validated StageColumns. @public */
export const decodeStageBatches = (file: ArrowBatches, stage: Stage): Result<StageColumns, DataFileError> => {
  const wrong = checkStageSchema(file.path, file.schema, stage, 'Arrow IPC file');
  if (wrong) return err(wrong);
  const cols: Record<string, Flat> = {};
  const names = new Set(file.schema.fields.map((f) => f.name));
  const optional = stage === 3 ? STAGE3_WIN_RATE_COLUMNS.filter((c) => names.has(c.name)) : [];
  for (const spec of [...stageSchema(stage).columns, ...optional]) {
    if (spec.name === 'id') continue; // a dedup key only; loaders drop it
    const r = decodeColumn(file, spec);
    // The file has the stage's columns, so say so: what it looks like and what this column should have been.
    if (!r.ok) return err(new DataFileError(r.error.location, inStage(stage, spec, r.error.detail)));
    cols[spec.name] = r.value;
  }
  const columns = stageColumnsFrom(stage, file.rows, cols);
  const valid = validateStageColumns(columns);
  if (!valid.ok)
    return err(
      new DataFileError({ path: file.path, column: valid.error.column, row: valid.error.row }, valid.error.message),
    );
  return ok(columns);
};
