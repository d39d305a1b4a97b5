import { generateStage1, STAGE1_ROWS } from '../shogi/reachable-squares';
import { RECORD_SCHEMAS, valuesPerRow } from './record-schema';
import { formatRecordIssue, validateStageColumns } from './validate-columns';

describe('Stage 1 generator (spec §8.1)', () => {
  it('produces 1,105 valid rows with maou ids and reachable squares', () => {
    const { columns, ids } = generateStage1();
    expect(columns.rows).toBe(STAGE1_ROWS);
    expect(validateStageColumns(columns).ok).toBe(true);
    // A Black pawn on row 4, column 2 (id 1·100 + 42) reaches only row 3, column 2.
    const row = Array.from(ids).indexOf(142n);
    const reach = columns.reachableSquares.subarray(row * 81, row * 81 + 81);
    expect(Array.from(reach.keys()).filter((k) => reach[k] === 1)).toEqual([3 * 9 + 2]);
    // A rook in the corner reaches 16 squares; a pawn in hand may drop on 72 squares.
    const rook = Array.from(ids).indexOf(700n);
    expect(columns.reachableSquares.subarray(rook * 81, rook * 81 + 81).reduce((a, b) => a + b, 0)).toBe(16);
    const pawnHand = Array.from(ids).indexOf(10000n);
    expect(columns.reachableSquares.subarray(pawnHand * 81, pawnHand * 81 + 81).reduce((a, b) => a + b, 0)).toBe(72);
  });
});

describe('record validation', () => {
  it('names the column and row of a bad value and of a bad length', () => {
    const { columns } = generateStage1();
    const hand = columns.piecesInHand.slice();
    hand[14 * 7 + 3] = 99;
    const bad = validateStageColumns({ ...columns, piecesInHand: hand });
    expect(bad.ok ? '' : formatRecordIssue(bad.error)).toMatch(
      /column piecesInHand, row 7: value 99 at element 3 outside \[0, 18\]/,
    );
    // Board IDs up to 80 (maou's I/O benchmark) and 255 index maou's 256-row embedding, so they train.
    const board = columns.boardIdPositions.slice();
    board[81 * 7 + 3] = 255;
    expect(validateStageColumns({ ...columns, boardIdPositions: board }).ok).toBe(true);
    const short = validateStageColumns({ ...columns, piecesInHand: columns.piecesInHand.subarray(0, 20) });
    expect(short.ok ? '' : formatRecordIssue(short.error)).toMatch(/column piecesInHand.*expected 1105 × 14/);
  });

  it('describes maou’s Stage 3 columns', () => {
    expect(RECORD_SCHEMAS.stage3.columns.map((c) => `${c.name}:${valuesPerRow(c)}`)).toEqual([
      'id:1',
      'boardIdPositions:81',
      'piecesInHand:14',
      'moveLabel:1496',
      'resultValue:1',
    ]);
  });
});
