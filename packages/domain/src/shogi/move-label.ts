import { err, ok, type Result } from '../result';
import { decodeMove16, DROP_TYPE_TO_HAND_INDEX } from './move16';
import type { Color } from './shogi-position';

/** Move-label categories in label order; drops are indexed by hand kind. @public */
export const LABEL_CATEGORIES = [
  'UP',
  'UP_LEFT',
  'UP_RIGHT',
  'LEFT',
  'RIGHT',
  'DOWN',
  'DOWN_LEFT',
  'DOWN_RIGHT',
  'KEIMA_LEFT',
  'KEIMA_RIGHT',
  'UP_P',
  'UP_LEFT_P',
  'UP_RIGHT_P',
  'LEFT_P',
  'RIGHT_P',
  'DOWN_P',
  'DOWN_LEFT_P',
  'DOWN_RIGHT_P',
  'KEIMA_LEFT_P',
  'KEIMA_RIGHT_P',
  'DROP_FU',
  'DROP_KY',
  'DROP_KE',
  'DROP_GI',
  'DROP_KI',
  'DROP_KA',
  'DROP_HI',
] as const;
/** @public */
export type LabelCategory = (typeof LABEL_CATEGORIES)[number];

type SquareRule = (x: number, y: number) => boolean;
const all: SquareRule = () => true;
const RULES: readonly SquareRule[] = [
  (_x, y) => y <= 7,
  (x, y) => x >= 1 && y <= 7,
  (x, y) => x <= 7 && y <= 7,
  (x) => x >= 1,
  (x) => x <= 7,
  (_x, y) => y >= 1,
  (x, y) => x >= 1 && y >= 1,
  (x, y) => x <= 7 && y >= 1,
  (x, y) => x >= 1 && y >= 2 && y <= 6,
  (x, y) => x <= 7 && y >= 2 && y <= 6,
  (_x, y) => y <= 2,
  (x, y) => x >= 1 && y <= 2,
  (x, y) => x <= 7 && y <= 2,
  (x, y) => x >= 1 && y <= 2,
  (x, y) => x <= 7 && y <= 2,
  (_x, y) => y >= 1,
  (x, y) => x >= 1 && y >= 1 && x >= y - 2,
  (x, y) => x <= 7 && y >= 1 && x + y <= 10,
  (x, y) => x >= 1 && y <= 2,
  (x, y) => x <= 7 && y <= 2,
  (_x, y) => y >= 1,
  (_x, y) => y >= 1,
  (_x, y) => y >= 2,
  all,
  all,
  all,
  all,
];

// offsetOf[cat][sq] = label of destination sq in category cat (−1 when invalid); squareOf[label] = destination.
const labelOf: Int16Array[] = [];
const LABEL_CATEGORY = new Uint8Array(1496);
const LABEL_SQUARE = new Uint8Array(1496);
{
  let next = 0;
  RULES.forEach((rule, cat) => {
    const table = new Int16Array(81).fill(-1);
    for (let sq = 0; sq < 81; sq++) {
      if (!rule(Math.floor(sq / 9), sq % 9)) continue;
      LABEL_CATEGORY[next] = cat;
      LABEL_SQUARE[next] = sq;
      table[sq] = next++;
    }
    labelOf.push(table);
  });
}

const direction = (dx: number, dy: number): number => {
  if (dx === 1 && dy === -2) return 8;
  if (dx === -1 && dy === -2) return 9;
  if (dx === 0) return dy < 0 ? 0 : 5;
  if (dy === 0) return dx > 0 ? 3 : 4;
  if (dy < 0) return dx > 0 ? 1 : 2;
  return dx > 0 ? 6 : 7;
};

/** The maou policy label (0–1495) of a move16 played by `turn`; squares are mirrored for White. @public */
export const moveLabel = (turn: Color, move16: number): Result<number, string> => {
  const m = decodeMove16(move16);
  const to = turn === 0 ? m.to : 80 - m.to;
  if (m.to > 80) return err(`move16 ${move16}: destination ${m.to} is not a square`);
  let cat: number;
  if (m.dropType > 0) {
    if (m.dropType > 7 || m.promote) return err(`move16 ${move16}: invalid drop`);
    cat = 20 + (DROP_TYPE_TO_HAND_INDEX[m.dropType] ?? 0);
  } else {
    const from = turn === 0 ? m.from : 80 - m.from;
    const dx = Math.floor(to / 9) - Math.floor(from / 9);
    const dy = (to % 9) - (from % 9);
    if (dx === 0 && dy === 0) return err(`move16 ${move16}: from equals to`);
    cat = direction(dx, dy) + (m.promote ? 10 : 0);
  }
  const label = labelOf[cat]?.[to] ?? -1;
  return label >= 0 ? ok(label) : err(`move16 ${move16}: destination outside ${LABEL_CATEGORIES[cat]} (illegal move)`);
};

/** What a label encodes: its category and destination square from the mover's point of view. @public */
export interface LabelMeaning {
  readonly category: LabelCategory;
  /** destination in mover-normalised squares (mirror with 80 − sq for White) */
  readonly to: number;
  readonly promote: boolean;
  /** hand index FU..HI for drops, else −1 */
  readonly dropHandIndex: number;
}

/** Inverse of the label space without a position. @public */
export const describeMoveLabel = (label: number): Result<LabelMeaning, string> => {
  if (!Number.isInteger(label) || label < 0 || label >= 1496) return err(`label ${label} outside 0..1495`);
  const cat = LABEL_CATEGORY[label] ?? 0;
  return ok({
    category: LABEL_CATEGORIES[cat] ?? 'UP',
    to: LABEL_SQUARE[label] ?? 0,
    promote: cat >= 10 && cat < 20,
    dropHandIndex: cat >= 20 ? cat - 20 : -1,
  });
};

/** label → move: the legal move16 (of `legal`, played by `turn`) that carries `label`. @public */
export const labelToMove16 = (label: number, turn: Color, legal: readonly number[]): Result<number, string> => {
  for (const m of legal) {
    const l = moveLabel(turn, m);
    if (l.ok && l.value === label) return ok(m);
  }
  return err(`label ${label} is not a legal move of this position`);
};
