import { emptyPosition, writeBoardIdPositions, writePiecesInHand, type StageColumns } from '@maou/bench-domain';
import { DataFileError } from '../arrow/data-file-error';
import { decodeFloat16 } from './float16';
import type { NpyLayout } from './npy-layouts';

const FEATURE_CELLS = 104 * 81;
// Thermometer hand planes per side: FU×18, KY×4, KE×4, GI×4, KI×4, KA×2, HI×2.
const HAND_PLANES = [18, 4, 4, 4, 4, 2, 2];

/** Unpacks np.packbits output (big-endian within a byte) into 0/1 bytes. */
const unpackBits = (src: Uint8Array, count: number): Uint8Array => {
  const out = new Uint8Array(count);
  for (let i = 0; i < count; i++) out[i] = ((src[i >> 3] ?? 0) >> (7 - (i & 7))) & 1;
  return out;
};

/** Turns the 104 LEGACY planes (spec §4.3) back into board ids and hand counts; null when not one-hot. */
const planesToFeatures = (planes: Uint8Array, board: Uint8Array, hand: Uint8Array, row: number): string | null => {
  const pos = emptyPosition(0);
  for (let p = 0; p < 28; p++) {
    for (let sq = 0; sq < 81; sq++) {
      if (!planes[p * 81 + sq]) continue;
      if (pos.board[sq]) return `square ${sq} set in two piece planes`;
      // Planes follow Apery piece types; the planes are already from the mover's side.
      pos.board[sq] = p < 14 ? p + 1 : p - 14 + 1 + 16;
    }
  }
  let plane = 28;
  for (const side of [0, 1] as const) {
    HAND_PLANES.forEach((n, kind) => {
      let count = 0;
      for (let k = 0; k < n; k++) count += planes[(plane + k) * 81] ?? 0;
      pos.hands[side][kind] = count;
      plane += n;
    });
  }
  writeBoardIdPositions(pos, board, row * 81);
  writePiecesInHand(pos, hand, row * 14);
  return null;
};

/** Decodes raw structured records into stage columns (float16 targets widened to float32). @internal */
export const decodeNpyRecords = (
  path: string,
  body: Uint8Array,
  layout: NpyLayout,
  baseOffset: number,
): StageColumns => {
  const rows = body.length / layout.itemsize;
  const f = layout.fields;
  const board = new Uint8Array(rows * 81);
  const hand = new Uint8Array(rows * 14);
  const copy = (field: number, per: number, out: Uint8Array): void => {
    for (let r = 0; r < rows; r++)
      out.set(body.subarray(r * layout.itemsize + field, r * layout.itemsize + field + per), r * per);
  };
  if (f.boardIdPositions !== undefined) {
    copy(f.boardIdPositions, 81, board);
    copy(f.piecesInHand ?? 0, 14, hand);
  } else {
    for (let r = 0; r < rows; r++) {
      const start = r * layout.itemsize + (f.features ?? f.features_packed ?? 0);
      const planes =
        f.features !== undefined
          ? body.subarray(start, start + FEATURE_CELLS)
          : unpackBits(body.subarray(start, start + 1053), FEATURE_CELLS);
      const problem = planesToFeatures(planes, board, hand, r);
      if (problem)
        throw new DataFileError({ path, column: 'features', row: r, byteOffset: baseOffset + start }, problem);
    }
  }
  if (layout.stage === 1) {
    const reach = new Uint8Array(rows * 81);
    copy(f.reachableSquares ?? 0, 81, reach);
    return { stage: 1, rows, boardIdPositions: board, piecesInHand: hand, reachableSquares: reach };
  }
  if (layout.stage === 2) {
    const legal = new Uint8Array(rows * 1496);
    copy(f.legalMovesLabel ?? 0, 1496, legal);
    return { stage: 2, rows, boardIdPositions: board, piecesInHand: hand, legalMovesLabel: legal };
  }
  const labels = new Float32Array(rows * 1496);
  const values = new Float32Array(rows);
  for (let r = 0; r < rows; r++) {
    decodeFloat16(body, r * layout.itemsize + (f.moveLabel ?? 0), 1496, labels, r * 1496);
    decodeFloat16(body, r * layout.itemsize + (f.resultValue ?? 0), 1, values, r);
  }
  return { stage: 3, rows, boardIdPositions: board, piecesInHand: hand, moveLabel: labels, resultValue: values };
};
