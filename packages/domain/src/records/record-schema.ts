/** Element type of a column as maou writes it. @public */
export type ColumnType = 'uint64' | 'uint8' | 'int8' | 'int16' | 'uint16' | 'float32' | 'binary' | 'string' | 'date32';

/**
 * One column of a record: element type and per-row shape ([] scalar, [14] list, [9, 9] list of lists).
 * On disk a shaped column is a (Large)List or FixedSizeList nest with exactly these lengths.
 * @public
 */
export interface ColumnSpec {
  readonly name: string;
  readonly type: ColumnType;
  readonly shape: readonly number[];
  /** bytes per value for fixed-width binary columns */
  readonly byteWidth?: number;
}

/** @public */
export type RecordKind = 'hcpe' | 'stage1' | 'stage2' | 'stage3';

/** @public */
export interface RecordSchema {
  readonly kind: RecordKind;
  readonly columns: readonly ColumnSpec[];
}

const id: ColumnSpec = { name: 'id', type: 'uint64', shape: [] };
const board: ColumnSpec = { name: 'boardIdPositions', type: 'uint8', shape: [9, 9] };
const hand: ColumnSpec = { name: 'piecesInHand', type: 'uint8', shape: [14] };

/** maou's record schemas (spec §2.1, §2.4, §2.7, §2.8). @public */
export const RECORD_SCHEMAS: Readonly<Record<RecordKind, RecordSchema>> = {
  hcpe: {
    kind: 'hcpe',
    columns: [
      { name: 'hcp', type: 'binary', shape: [], byteWidth: 32 },
      { name: 'eval', type: 'int16', shape: [] },
      { name: 'bestMove16', type: 'int16', shape: [] },
      { name: 'gameResult', type: 'int8', shape: [] },
      { name: 'id', type: 'string', shape: [] },
      { name: 'partitioningKey', type: 'date32', shape: [] },
      { name: 'ratings', type: 'uint16', shape: [2] },
      { name: 'endgameStatus', type: 'string', shape: [] },
      { name: 'moves', type: 'int16', shape: [] },
    ],
  },
  stage1: { kind: 'stage1', columns: [id, board, hand, { name: 'reachableSquares', type: 'uint8', shape: [9, 9] }] },
  stage2: { kind: 'stage2', columns: [id, board, hand, { name: 'legalMovesLabel', type: 'uint8', shape: [1496] }] },
  stage3: {
    kind: 'stage3',
    columns: [
      id,
      board,
      hand,
      { name: 'moveLabel', type: 'float32', shape: [1496] },
      { name: 'resultValue', type: 'float32', shape: [] },
    ],
  },
};

/**
 * Stage 3 columns maou HEAD writes (after `moveLabel`) and older files lack: read when present, needed by the
 * `win-rate` and `weighted` policy targets. @public
 */
export const STAGE3_WIN_RATE_COLUMNS: readonly ColumnSpec[] = [
  { name: 'moveWinRate', type: 'float32', shape: [1496] },
  { name: 'bestMoveWinRate', type: 'float32', shape: [] },
];

/** The schema of a training stage. @public */
export const stageSchema = (stage: 1 | 2 | 3): RecordSchema => RECORD_SCHEMAS[`stage${stage}`];

/** Values per row of a column (product of its shape). @public */
export const valuesPerRow = (c: ColumnSpec): number => c.shape.reduce((a, b) => a * b, 1);

/** Columns that only this kind has, so a file's schema says which record it holds. */
const DISTINCT: readonly [RecordKind, readonly string[]][] = [
  ['hcpe', ['hcp', 'bestMove16', 'gameResult']],
  ['stage1', ['reachableSquares']],
  ['stage2', ['legalMovesLabel']],
  ['stage3', ['moveLabel', 'resultValue']],
];

/** The record kind whose distinguishing columns a file has (extra columns allowed), or null. @public */
export const recordKindOfColumns = (names: readonly string[]): RecordKind | null =>
  DISTINCT.find(([, cols]) => cols.every((c) => names.includes(c)))?.[0] ?? null;

/** How a record kind is named to users. @public */
export const recordKindLabel = (kind: RecordKind): string => (kind === 'hcpe' ? 'HCPE' : `Stage ${kind.slice(5)}`);

/** Why a file of `found` records cannot train `stage`, and what to run instead. @public */
export const wrongRecordKindMessage = (found: RecordKind, stage: 1 | 2 | 3): string => {
  if (found === 'hcpe') {
    return (
      `holds HCPE rows (raw game records: hcp, eval, bestMove16, gameResult…), not preprocessed Stage ${stage} training rows; ` +
      (stage === 3
        ? "make training rows with maou's pre-processing (`maou pre-process --input-path <HCPE dir> --output-dir <dir>`)"
        : `make Stage ${stage} rows with maou's Stage ${stage} data generation`) +
      ` or generate sample rows with \`maou utility generate-sample-data --stage ${stage} --output-dir <dir>\``
    );
  }
  return `holds ${recordKindLabel(found)} rows, expected Stage ${stage} training rows (pass it with --${found}-data-path, or pick the matching --stage)`;
};
