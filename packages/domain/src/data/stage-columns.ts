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
