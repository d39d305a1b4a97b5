import { err, ok, type Result } from '../result';
import { emptyPosition, PIECE, WHITE_OFFSET, type ShogiPosition } from './shogi-position';

const LETTERS: Readonly<Record<string, number>> = {
  P: PIECE.FU,
  L: PIECE.KY,
  N: PIECE.KE,
  S: PIECE.GI,
  G: PIECE.KI,
  B: PIECE.KA,
  R: PIECE.HI,
  K: PIECE.OU,
};
const HAND_LETTERS = 'PLNSGBR';

/** Parses the board, turn and hands of an SFEN (the move number is ignored). @public */
export const parseSfen = (sfen: string): Result<ShogiPosition, string> => {
  const [boardText, turnText, handText] = sfen.trim().split(/\s+/);
  if (!boardText || (turnText !== 'b' && turnText !== 'w') || handText === undefined)
    return err(`sfen "${sfen}": expected "<board> <b|w> <hands>"`);
  const pos = emptyPosition(turnText === 'b' ? 0 : 1);
  const ranks = boardText.split('/');
  if (ranks.length !== 9) return err(`sfen "${sfen}": expected 9 ranks, got ${ranks.length}`);
  for (let r = 0; r < 9; r++) {
    let file = 9;
    let promoted = false;
    for (const ch of ranks[r] ?? '') {
      if (ch === '+') {
        promoted = true;
        continue;
      }
      if (/[1-9]/.test(ch)) {
        file -= Number(ch);
        continue;
      }
      const type = LETTERS[ch.toUpperCase()];
      if (type === undefined || file < 1) return err(`sfen "${sfen}": bad piece "${ch}" on rank ${r + 1}`);
      const code = (promoted ? type + 8 : type) + (ch === ch.toLowerCase() ? WHITE_OFFSET : 0);
      pos.board[(file - 1) * 9 + r] = code;
      file -= 1;
      promoted = false;
    }
    if (file !== 0) return err(`sfen "${sfen}": rank ${r + 1} does not have 9 files`);
  }
  if (handText !== '-') {
    let count = 0;
    for (const ch of handText) {
      if (/[0-9]/.test(ch)) {
        count = count * 10 + Number(ch);
        continue;
      }
      const idx = HAND_LETTERS.indexOf(ch.toUpperCase());
      if (idx < 0) return err(`sfen "${sfen}": bad hand piece "${ch}"`);
      pos.hands[ch === ch.toUpperCase() ? 0 : 1][idx] += count === 0 ? 1 : count;
      count = 0;
    }
  }
  return ok(pos);
};

/** Writes the board, turn and hands as SFEN with move number 1. @public */
export const toSfen = (pos: ShogiPosition): string => {
  const rows: string[] = [];
  for (let r = 0; r < 9; r++) {
    let row = '';
    let empty = 0;
    for (let file = 9; file >= 1; file--) {
      const code = pos.board[(file - 1) * 9 + r] ?? 0;
      if (code === 0) {
        empty++;
        continue;
      }
      if (empty) {
        row += String(empty);
        empty = 0;
      }
      const type = code & 15;
      const base = type > PIECE.OU ? type - 8 : type;
      const letter = Object.keys(LETTERS).find((k) => LETTERS[k] === base) ?? '?';
      row += (type > PIECE.OU ? '+' : '') + (code >= WHITE_OFFSET ? letter.toLowerCase() : letter);
    }
    rows.push(empty ? row + String(empty) : row);
  }
  let hands = '';
  for (const color of [0, 1] as const) {
    for (let i = 6; i >= 0; i--) {
      const n = pos.hands[color][i] ?? 0;
      const letter = HAND_LETTERS[i] ?? '';
      if (n > 0) hands += (n > 1 ? String(n) : '') + (color === 0 ? letter : letter.toLowerCase());
    }
  }
  return `${rows.join('/')} ${pos.turn === 0 ? 'b' : 'w'} ${hands || '-'} 1`;
};
