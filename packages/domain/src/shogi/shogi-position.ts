/** 0 = Black (sente), 1 = White (gote). @public */
export type Color = 0 | 1;

/**
 * A position in cshogi/Apery terms: `board[sq]` holds a cshogi piece code (0 empty, 1–14 Black, 17–30 White),
 * squares `sq = fileIdx * 9 + rankIdx`; `hands[color][i]` counts in hand order FU, KY, KE, GI, KI, KA, HI.
 * @public
 */
export interface ShogiPosition {
  readonly turn: Color;
  readonly board: Uint8Array;
  readonly hands: readonly [Uint8Array, Uint8Array];
}

/** cshogi piece types (colour bit 16 added for White). @public */
export const PIECE = {
  FU: 1,
  KY: 2,
  KE: 3,
  GI: 4,
  KA: 5,
  HI: 6,
  KI: 7,
  OU: 8,
  TO: 9,
  NKY: 10,
  NKE: 11,
  NGI: 12,
  UMA: 13,
  RYU: 14,
} as const;

/** Offset added to a cshogi piece type for a White piece. @public */
export const WHITE_OFFSET = 16;

/** Per hand kind, the number of pieces in the standard 40-piece set. @public */
export const HAND_MAXIMA: readonly number[] = [18, 4, 4, 4, 4, 2, 2];

/** cshogi piece type (1–14) → maou PieceId (gold/bishop/rook reordered). @internal */
export const MAOU_PIECE_ID: readonly number[] = [0, 1, 2, 3, 4, 6, 7, 5, 8, 9, 10, 11, 12, 13, 14];

/** Unpromoted base of a cshogi piece type (promoted → its base, others unchanged). @internal */
export const basePieceType = (type: number): number => (type >= PIECE.TO ? type - 8 : type);

/** A fresh empty position (both hands empty), Black to move. @public */
export const emptyPosition = (turn: Color = 0): ShogiPosition => ({
  turn,
  board: new Uint8Array(81),
  hands: [new Uint8Array(7), new Uint8Array(7)],
});

/** `sq` for a file (1–9) and rank (1–9). @public */
export const squareOf = (file: number, rank: number): number => (file - 1) * 9 + (rank - 1);
