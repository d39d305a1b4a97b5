import { err, ok, type Result } from '../result';

/** A move in Apery's 16-bit form, decoded. `dropType` is the Apery piece type (1 pawn … 7 gold) or 0. @public */
export interface Move16Parts {
  readonly to: number;
  readonly from: number;
  readonly dropType: number;
  readonly promote: boolean;
}

/** Apery drop piece type → hand index (FU, KY, KE, GI, KI, KA, HI). @public */
export const DROP_TYPE_TO_HAND_INDEX: readonly number[] = [-1, 0, 1, 2, 3, 5, 6, 4];
const DROP_LETTERS = ' PLNSBRG';

/** Splits a move16 into its fields. @public */
export const decodeMove16 = (move16: number): Move16Parts => {
  const from = (move16 >> 7) & 0x7f;
  return { to: move16 & 0x7f, from, dropType: from >= 81 ? from - 80 : 0, promote: (move16 & 0x4000) !== 0 };
};

/** Builds a board move16. @public */
export const boardMove16 = (from: number, to: number, promote: boolean): number =>
  to | (from << 7) | (promote ? 0x4000 : 0);

/** Builds a drop move16 from an Apery piece type (1 pawn … 7 gold). @public */
export const dropMove16 = (dropType: number, to: number): number => to | ((80 + dropType) << 7);

const parseSquare = (text: string): number => {
  const file = text.charCodeAt(0) - 48;
  const rank = text.charCodeAt(1) - 96;
  return file >= 1 && file <= 9 && rank >= 1 && rank <= 9 ? (file - 1) * 9 + rank - 1 : -1;
};
const squareText = (sq: number): string => `${Math.floor(sq / 9) + 1}${String.fromCharCode(97 + (sq % 9))}`;

/** USI text (e.g. 7g7f, 8h2b+, P*5e) → move16. @public */
export const usiToMove16 = (usi: string): Result<number, string> => {
  if (usi[1] === '*') {
    const dropType = DROP_LETTERS.indexOf(usi[0] ?? ' ');
    const to = parseSquare(usi.slice(2, 4));
    return dropType > 0 && to >= 0 && usi.length === 4
      ? ok(dropMove16(dropType, to))
      : err(`invalid USI drop "${usi}"`);
  }
  const from = parseSquare(usi.slice(0, 2));
  const to = parseSquare(usi.slice(2, 4));
  const promote = usi[4] === '+';
  if (from < 0 || to < 0 || usi.length !== (promote ? 5 : 4)) return err(`invalid USI move "${usi}"`);
  return ok(boardMove16(from, to, promote));
};

/** move16 → USI text. @public */
export const move16ToUsi = (move16: number): string => {
  const m = decodeMove16(move16);
  if (m.dropType > 0) return `${DROP_LETTERS[m.dropType] ?? '?'}*${squareText(m.to)}`;
  return `${squareText(m.from)}${squareText(m.to)}${m.promote ? '+' : ''}`;
};
