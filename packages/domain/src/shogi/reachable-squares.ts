import type { Stage1Columns } from '../data/stage-columns';

type Step = readonly [dr: number, dc: number];
const ORTH: readonly Step[] = [
  [-1, 0],
  [1, 0],
  [0, -1],
  [0, 1],
];
const DIAG: readonly Step[] = [
  [-1, -1],
  [-1, 1],
  [1, -1],
  [1, 1],
];
const GOLD: readonly Step[] = [
  [-1, -1],
  [-1, 0],
  [-1, 1],
  [0, -1],
  [0, 1],
  [1, 0],
];
interface Mover {
  readonly id: number;
  readonly steps: readonly Step[];
  readonly slides: readonly Step[];
  readonly minRow: number;
}

// maou PieceIds with their movement on an empty board, Black pointing up (row − 1).
const MOVERS: readonly Mover[] = [
  { id: 1, steps: [[-1, 0]], slides: [], minRow: 1 },
  { id: 2, steps: [], slides: [[-1, 0]], minRow: 1 },
  {
    id: 3,
    steps: [
      [-2, -1],
      [-2, 1],
    ],
    slides: [],
    minRow: 2,
  },
  {
    id: 4,
    steps: [
      [-1, -1],
      [-1, 0],
      [-1, 1],
      [1, -1],
      [1, 1],
    ],
    slides: [],
    minRow: 0,
  },
  { id: 5, steps: GOLD, slides: [], minRow: 0 },
  { id: 6, steps: [], slides: DIAG, minRow: 0 },
  { id: 7, steps: [], slides: ORTH, minRow: 0 },
  { id: 8, steps: [...ORTH, ...DIAG], slides: [], minRow: 0 },
  ...[9, 10, 11, 12].map((id) => ({ id, steps: GOLD, slides: [], minRow: 0 })),
  { id: 13, steps: ORTH, slides: DIAG, minRow: 0 },
  { id: 14, steps: DIAG, slides: ORTH, minRow: 0 },
];
const HAND_MIN_ROW: readonly number[] = [1, 1, 2, 0, 0, 0, 0];

/** Number of Stage 1 rows: 1,098 single-piece boards plus 7 single-piece hands. @public */
export const STAGE1_ROWS = 1105;

const inside = (r: number, c: number): boolean => r >= 0 && r < 9 && c >= 0 && c < 9;

const markReach = (m: Mover, row: number, col: number, out: Uint8Array, base: number): void => {
  for (const [dr, dc] of m.steps) if (inside(row + dr, col + dc)) out[base + (row + dr) * 9 + col + dc] = 1;
  for (const [dr, dc] of m.slides) {
    for (let r = row + dr, c = col + dc; inside(r, c); r += dr, c += dc) out[base + r * 9 + c] = 1;
  }
};

/** The deterministic Stage 1 dataset (maou's reachable-squares records) and its ids. @public */
export const generateStage1 = (): { readonly columns: Stage1Columns; readonly ids: BigUint64Array } => {
  const board = new Uint8Array(STAGE1_ROWS * 81);
  const hand = new Uint8Array(STAGE1_ROWS * 14);
  const reach = new Uint8Array(STAGE1_ROWS * 81);
  const ids = new BigUint64Array(STAGE1_ROWS);
  let n = 0;
  for (const m of MOVERS) {
    for (let row = m.minRow; row < 9; row++) {
      for (let col = 0; col < 9; col++, n++) {
        board[n * 81 + row * 9 + col] = m.id;
        markReach(m, row, col, reach, n * 81);
        ids[n] = BigInt(m.id * 100 + row * 10 + col);
      }
    }
  }
  HAND_MIN_ROW.forEach((minRow, i) => {
    hand[n * 14 + i] = 1;
    reach.fill(1, n * 81 + minRow * 9, (n + 1) * 81);
    ids[n++] = BigInt(10000 + i);
  });
  return { columns: { stage: 1, rows: n, boardIdPositions: board, piecesInHand: hand, reachableSquares: reach }, ids };
};
