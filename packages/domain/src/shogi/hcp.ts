import { err, ok, type Result } from '../result';
import { emptyPosition, HAND_MAXIMA, PIECE, WHITE_OFFSET, basePieceType, type ShogiPosition } from './shogi-position';

/** Size of an HCP record in bytes. @public */
export const HCP_BYTES = 32;

type Code = readonly [code: number, bits: number];

// Board codes by cshogi piece type (Black); White codes follow in WHITE_BOARD. Index 0 = empty, 8 = king (not coded).
const BLACK_BOARD: readonly (Code | null)[] = [
  [0, 1],
  [1, 4],
  [3, 6],
  [7, 6],
  [11, 6],
  [31, 8],
  [63, 8],
  [15, 6],
  null,
  [9, 4],
  [35, 6],
  [39, 6],
  [43, 6],
  [159, 8],
  [191, 8],
];
const WHITE_BOARD: readonly (Code | null)[] = [
  [0, 1],
  [5, 4],
  [19, 6],
  [23, 6],
  [27, 6],
  [95, 8],
  [127, 8],
  [47, 6],
  null,
  [13, 4],
  [51, 6],
  [55, 6],
  [59, 6],
  [223, 8],
  [255, 8],
];
// Hand codes in hand order FU, KY, KE, GI, KI, KA, HI.
const HAND_CODES: readonly (readonly Code[])[] = [
  [
    [0, 3],
    [1, 5],
    [3, 5],
    [5, 5],
    [7, 5],
    [31, 7],
    [63, 7],
  ],
  [
    [4, 3],
    [17, 5],
    [19, 5],
    [21, 5],
    [23, 5],
    [95, 7],
    [127, 7],
  ],
];
const BOX_CODES: readonly Code[] = [
  [2, 3],
  [9, 5],
  [11, 5],
  [13, 5],
  [29, 5],
  [15, 7],
  [47, 7],
];
const HAND_INDEX_OF_TYPE: readonly number[] = [-1, 0, 1, 2, 3, 5, 6, 4];

const key = (code: number, bits: number): number => (bits << 8) | code;
const BOARD_LOOKUP = new Map<number, number>();
BLACK_BOARD.forEach((c, type) => c && BOARD_LOOKUP.set(key(c[0], c[1]), type));
WHITE_BOARD.forEach((c, type) => c && type > 0 && BOARD_LOOKUP.set(key(c[0], c[1]), type + WHITE_OFFSET));
// Hand lookup value: color * 8 + hand index, or 16 + hand index for a piece-box entry.
const HAND_LOOKUP = new Map<number, number>();
HAND_CODES.forEach((codes, color) => codes.forEach(([c, b], i) => HAND_LOOKUP.set(key(c, b), color * 8 + i)));
BOX_CODES.forEach(([c, b], i) => HAND_LOOKUP.set(key(c, b), 16 + i));

class BitReader {
  pos = 0;
  constructor(private readonly bytes: Uint8Array) {}
  bit(): number {
    const b = ((this.bytes[this.pos >> 3] ?? 0) >> (this.pos & 7)) & 1;
    this.pos++;
    return b;
  }
  bits(n: number): number {
    let v = 0;
    for (let i = 0; i < n; i++) v |= this.bit() << i;
    return v;
  }
  /** Reads one prefix code out of `table`; null when no code of up to 8 bits matches. */
  code(table: ReadonlyMap<number, number>): number | null {
    let code = 0;
    for (let len = 1; len <= 8 && this.pos < 256; len++) {
      code |= this.bit() << (len - 1);
      const hit = table.get(key(code, len));
      if (hit !== undefined) return hit;
    }
    return null;
  }
}

/** Decodes a 32-byte Huffman-coded position (Apery/cshogi HCP). @public */
export const decodeHcp = (hcp: Uint8Array): Result<ShogiPosition, string> => {
  if (hcp.length !== HCP_BYTES) return err(`hcp must be ${HCP_BYTES} bytes, got ${hcp.length}`);
  const r = new BitReader(hcp);
  const pos = emptyPosition(r.bit() as 0 | 1);
  const kings = [r.bits(7), r.bits(7)];
  if ((kings[0] ?? 81) > 80 || (kings[1] ?? 81) > 80 || kings[0] === kings[1])
    return err(`hcp: invalid king squares ${kings.join(',')}`);
  pos.board[kings[0] ?? 0] = PIECE.OU;
  pos.board[kings[1] ?? 0] = PIECE.OU + WHITE_OFFSET;
  for (let sq = 0; sq < 81; sq++) {
    if (sq === kings[0] || sq === kings[1]) continue;
    const at = r.pos;
    const code = r.code(BOARD_LOOKUP);
    if (code === null) return err(`hcp: invalid board code for square ${sq} at bit ${at}`);
    pos.board[sq] = code;
  }
  while (r.pos < 256) {
    const at = r.pos;
    const v = r.code(HAND_LOOKUP);
    if (v === null) return err(`hcp: invalid hand code at bit ${at}`);
    if (v < 16) pos.hands[v >> 3 ? 1 : 0][v & 7] += 1;
  }
  return ok(pos);
};

class BitWriter {
  readonly bytes = new Uint8Array(HCP_BYTES);
  pos = 0;
  write(value: number, bits: number): boolean {
    if (this.pos + bits > 256) return false;
    for (let i = 0; i < bits; i++, this.pos++) this.bytes[this.pos >> 3] |= ((value >> i) & 1) << (this.pos & 7);
    return true;
  }
}

/** Encodes a position with at most the standard 40 pieces as a 32-byte HCP. @public */
export const encodeHcp = (pos: ShogiPosition): Result<Uint8Array, string> => {
  const w = new BitWriter();
  const bk = pos.board.indexOf(PIECE.OU);
  const wk = pos.board.indexOf(PIECE.OU + WHITE_OFFSET);
  if (bk < 0 || wk < 0) return err('hcp: both kings must be on the board');
  w.write(pos.turn, 1);
  w.write(bk, 7);
  w.write(wk, 7);
  const used = [0, 0, 0, 0, 0, 0, 0];
  for (let sq = 0; sq < 81; sq++) {
    if (sq === bk || sq === wk) continue;
    const piece = pos.board[sq] ?? 0;
    const type = piece & 15;
    const code = (piece >= WHITE_OFFSET ? WHITE_BOARD : BLACK_BOARD)[type];
    if (!code || type === PIECE.OU) return err(`hcp: unsupported piece ${piece} on square ${sq}`);
    w.write(code[0], code[1]);
    if (type !== 0) used[HAND_INDEX_OF_TYPE[basePieceType(type)] ?? 0]! += 1;
  }
  for (const color of [0, 1] as const) {
    for (let i = 0; i < 7; i++) {
      const n = pos.hands[color][i] ?? 0;
      const [c, b] = HAND_CODES[color]![i]!;
      for (let k = 0; k < n; k++) if (!w.write(c, b)) return err('hcp: more than 40 pieces');
      used[i]! += n;
    }
  }
  for (let i = 0; i < 7; i++) {
    const [c, b] = BOX_CODES[i]!;
    for (let k = used[i]!; k < HAND_MAXIMA[i]!; k++) w.write(c, b);
    if (used[i]! > HAND_MAXIMA[i]!) return err(`hcp: ${used[i]} pieces of hand kind ${i}, at most ${HAND_MAXIMA[i]}`);
  }
  return w.pos === 256 ? ok(w.bytes) : err(`hcp: encoded ${w.pos} bits, expected 256`);
};
