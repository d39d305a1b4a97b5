import type { Color } from './shogi-position';

/** cshogi game results: 0 draw, 1 Black won, 2 White won. @public */
export const GAME_RESULT = { DRAW: 0, BLACK_WIN: 1, WHITE_WIN: 2 } as const;

/** Value target for the side to move: 1 won, 0 lost, 0.5 for a draw or any other code. @public */
export const resultValue = (turn: Color, gameResult: number): number => {
  if (gameResult === GAME_RESULT.BLACK_WIN) return turn === 0 ? 1 : 0;
  if (gameResult === GAME_RESULT.WHITE_WIN) return turn === 1 ? 1 : 0;
  return 0.5;
};
