/**
 * Records of one stage in columnar host memory, row-major, one row per position.
 * Board ids are the mover-perspective piece ids (0..255), hands the 14 hand counts.
 * @public
 */
export interface StageColumnsBase {
  readonly rows: number;
  /** rows × 81 */
  readonly boardIdPositions: Uint8Array;
  /** rows × 14 */
  readonly piecesInHand: Uint8Array;
}

/** Stage 3 preprocessing records: policy distribution and result value. @public */
export interface Stage3Columns extends StageColumnsBase {
  readonly stage: 3;
  /** rows × 1496, a probability vector per row */
  readonly moveLabel: Float32Array;
  /** rows, in [0, 1] */
  readonly resultValue: Float32Array;
  /** rows × 1496, per-move win rate in [0, 1] (0 for moves never played); maou HEAD's column, absent in older files */
  readonly moveWinRate?: Float32Array;
  /** rows, the largest `moveWinRate` of the row; present with `moveWinRate` */
  readonly bestMoveWinRate?: Float32Array;
}

/** Stage 1 records: reachable squares, 0/1 per square. @public */
export interface Stage1Columns extends StageColumnsBase {
  readonly stage: 1;
  /** rows × 81 */
  readonly reachableSquares: Uint8Array;
}

/** Stage 2 records: multi-hot legal-move labels. @public */
export interface Stage2Columns extends StageColumnsBase {
  readonly stage: 2;
  /** rows × 1496 */
  readonly legalMovesLabel: Uint8Array;
}

/** @public */
export type StageColumns = Stage1Columns | Stage2Columns | Stage3Columns;

/**
 * A stage's columns from decoded columns by name (the Arrow decoder's and a row-reading source's shared last step): the
 * win-rate columns are carried when present. Lengths are not checked here (`validateStageColumns` does).
 * @public
 */
export const stageColumnsFrom = (
  stage: 1 | 2 | 3,
  rows: number,
  cols: Readonly<Record<string, Uint8Array | Float32Array>>,
): StageColumns => {
  const base = {
    rows,
    boardIdPositions: cols.boardIdPositions as Uint8Array,
    piecesInHand: cols.piecesInHand as Uint8Array,
  };
  if (stage === 1) return { ...base, stage, reachableSquares: cols.reachableSquares as Uint8Array };
  if (stage === 2) return { ...base, stage, legalMovesLabel: cols.legalMovesLabel as Uint8Array };
  return {
    ...base,
    stage,
    moveLabel: cols.moveLabel as Float32Array,
    resultValue: cols.resultValue as Float32Array,
    ...(cols.moveWinRate ? { moveWinRate: cols.moveWinRate as Float32Array } : {}),
    ...(cols.bestMoveWinRate ? { bestMoveWinRate: cols.bestMoveWinRate as Float32Array } : {}),
  };
};
