import { MAOU_PIECE_ID, WHITE_OFFSET, type ShogiPosition } from './shogi-position';

/** maou PieceId of a cshogi code seen by the side to move: own pieces 1–14, opponent's 15–28. */
const moverPieceId = (code: number, turn: 0 | 1): number => {
  if (code === 0) return 0;
  const white = code >= WHITE_OFFSET ? 1 : 0;
  const id = MAOU_PIECE_ID[code & 15] ?? 0;
  return white === turn ? id : id + 14;
};

/**
 * Writes the 9×9 board ids from the mover's point of view into `out` at `offset`:
 * row = rank index, column = file index; rotated 180° when White is to move.
 * @public
 */
export const writeBoardIdPositions = (pos: ShogiPosition, out: Uint8Array, offset = 0): void => {
  for (let row = 0; row < 9; row++) {
    for (let col = 0; col < 9; col++) {
      const sq = col * 9 + row;
      const code = pos.board[pos.turn === 0 ? sq : 80 - sq] ?? 0;
      out[offset + row * 9 + col] = moverPieceId(code, pos.turn);
    }
  }
};

/** Writes the 14 hand counts, mover's 7 then opponent's 7, into `out` at `offset`. @public */
export const writePiecesInHand = (pos: ShogiPosition, out: Uint8Array, offset = 0): void => {
  out.set(pos.hands[pos.turn], offset);
  out.set(pos.hands[pos.turn === 0 ? 1 : 0], offset + 7);
};

/** The board ids as a fresh 81-byte array (see writeBoardIdPositions). @public */
export const boardIdPositions = (pos: ShogiPosition): Uint8Array => {
  const out = new Uint8Array(81);
  writeBoardIdPositions(pos, out);
  return out;
};

/** The hand counts as a fresh 14-byte array (see writePiecesInHand). @public */
export const piecesInHand = (pos: ShogiPosition): Uint8Array => {
  const out = new Uint8Array(14);
  writePiecesInHand(pos, out);
  return out;
};

// maou PieceId (1–14) → cshogi piece type.
const CSHOGI_TYPE_OF_ID: readonly number[] = [0, 1, 2, 3, 4, 7, 5, 6, 8, 9, 10, 11, 12, 13, 14];

/**
 * Rebuilds a Black-to-move position from mover-perspective features (board ids row-major, 14 hand counts) —
 * what maou does before labelling the legal moves of a normalised White position.
 * @public
 */
export const positionFromFeatures = (board: Uint8Array, hand: Uint8Array): ShogiPosition => {
  const squares = new Uint8Array(81);
  for (let row = 0; row < 9; row++) {
    for (let col = 0; col < 9; col++) {
      const id = board[row * 9 + col] ?? 0;
      if (id === 0) continue;
      squares[col * 9 + row] = id > 14 ? (CSHOGI_TYPE_OF_ID[id - 14] ?? 0) + 16 : (CSHOGI_TYPE_OF_ID[id] ?? 0);
    }
  }
  return { turn: 0, board: squares, hands: [hand.slice(0, 7), hand.slice(7, 14)] };
};
