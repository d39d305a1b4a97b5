import type { StageColumns } from '../data/stage-columns';
import { err, ok, type Result } from '../result';
import type { HcpeColumns } from './hcpe-columns';

/** A record value that breaks the schema, located by column and row. @public */
export interface RecordIssue {
  readonly column: string;
  readonly row: number;
  readonly message: string;
}

/** Renders an issue as `column <c>, row <r>: <message>`. @public */
export const formatRecordIssue = (i: RecordIssue): string => `column ${i.column}, row ${i.row}: ${i.message}`;

const checkLength = (column: string, actual: number, rows: number, per: number): RecordIssue | null =>
  actual === rows * per
    ? null
    : {
        column,
        row: Math.floor(actual / Math.max(per, 1)),
        message: `expected ${rows} × ${per} values, got ${actual}`,
      };

const firstOutOfRange = (values: ArrayLike<number>, lo: number, hi: number): number => {
  // Monomorphic loops per array kind: this runs over every target value of every file read.
  if (values instanceof Float32Array) {
    for (let i = 0; i < values.length; i++) {
      const v = values[i] as number;
      if (v < lo || v > hi || v !== v) return i;
    }
    return -1;
  }
  if (values instanceof Uint8Array) {
    for (let i = 0; i < values.length; i++) {
      const v = values[i] as number;
      if (v > hi || v < lo) return i;
    }
    return -1;
  }
  for (let i = 0; i < values.length; i++) {
    const v = values[i] as number;
    if (!(v >= lo && v <= hi)) return i;
  }
  return -1;
};

const checkRange = (
  column: string,
  values: ArrayLike<number>,
  per: number,
  lo: number,
  hi: number,
): RecordIssue | null => {
  const i = firstOutOfRange(values, lo, hi);
  return i < 0
    ? null
    : { column, row: Math.floor(i / per), message: `value ${values[i]} at element ${i % per} outside [${lo}, ${hi}]` };
};

/**
 * Board IDs the network accepts: indices into maou's board-ID embedding of 256 rows (STEM.vocabulary in the app).
 * maou's preprocessing writes 0–28, its I/O benchmark 0–80; anything below 256 trains in maou, so only ≥ 256 is refused.
 * @public
 */
export const BOARD_ID_VOCABULARY = 256;

/** Checks lengths and value ranges of stage columns (board ids below 256, hands 0–18, targets in [0, 1]). @public */
export const validateStageColumns = (c: StageColumns): Result<StageColumns, RecordIssue> => {
  const checks: (() => RecordIssue | null)[] = [
    () => checkLength('boardIdPositions', c.boardIdPositions.length, c.rows, 81),
    () => checkLength('piecesInHand', c.piecesInHand.length, c.rows, 14),
    () => checkRange('boardIdPositions', c.boardIdPositions, 81, 0, BOARD_ID_VOCABULARY - 1),
    () => checkRange('piecesInHand', c.piecesInHand, 14, 0, 18),
  ];
  if (c.stage === 1)
    checks.push(
      () => checkLength('reachableSquares', c.reachableSquares.length, c.rows, 81),
      () => checkRange('reachableSquares', c.reachableSquares, 81, 0, 1),
    );
  if (c.stage === 2)
    checks.push(
      () => checkLength('legalMovesLabel', c.legalMovesLabel.length, c.rows, 1496),
      () => checkRange('legalMovesLabel', c.legalMovesLabel, 1496, 0, 1),
    );
  if (c.stage === 3) {
    checks.push(
      () => checkLength('moveLabel', c.moveLabel.length, c.rows, 1496),
      () => checkLength('resultValue', c.resultValue.length, c.rows, 1),
      () => checkRange('moveLabel', c.moveLabel, 1496, 0, 1),
      () => checkRange('resultValue', c.resultValue, 1, 0, 1),
    );
    const { moveWinRate, bestMoveWinRate } = c;
    if (moveWinRate)
      checks.push(
        () => checkLength('moveWinRate', moveWinRate.length, c.rows, 1496),
        () => checkRange('moveWinRate', moveWinRate, 1496, 0, 1),
      );
    if (bestMoveWinRate)
      checks.push(
        () => checkLength('bestMoveWinRate', bestMoveWinRate.length, c.rows, 1),
        () => checkRange('bestMoveWinRate', bestMoveWinRate, 1, 0, 1),
      );
  }
  for (const check of checks) {
    const issue = check();
    if (issue) return err(issue);
  }
  return ok(c);
};

/** Checks lengths of HCPE columns and the game-result codes. @public */
export const validateHcpeColumns = (c: HcpeColumns): Result<HcpeColumns, RecordIssue> => {
  const issue =
    checkLength('hcp', c.hcp.length, c.rows, 32) ??
    checkLength('eval', c.eval.length, c.rows, 1) ??
    checkLength('bestMove16', c.bestMove16.length, c.rows, 1) ??
    checkLength('gameResult', c.gameResult.length, c.rows, 1) ??
    checkLength('id', c.id.length, c.rows, 1) ??
    checkLength('partitioningKey', c.partitioningKey.length, c.rows, 1) ??
    checkLength('ratings', c.ratings.length, c.rows, 2) ??
    checkLength('endgameStatus', c.endgameStatus.length, c.rows, 1) ??
    checkLength('moves', c.moves.length, c.rows, 1) ??
    checkRange('gameResult', c.gameResult, 1, 0, 2);
  return issue ? err(issue) : ok(c);
};
