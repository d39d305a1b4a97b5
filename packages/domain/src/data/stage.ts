/** Training stage: 1 reachable squares, 2 legal moves, 3 policy + value. @public */
export type Stage = 1 | 2 | 3;

/** Board squares, hand-piece kinds and the size of the move-label space. @public */
export const BOARD_SQUARES = 81;
/** @public */
export const HAND_KINDS = 14;
/** @public */
export const MOVE_LABELS = 1496;
