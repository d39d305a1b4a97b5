import type { StageColumns } from '@maou/bench-domain';
import { writeFileAtomic } from '../files/atomic-file';
import { NEW_FILE } from '../files/output-kinds';
import { floatToHalf } from './float16';
import { NPY_LAYOUTS, type NpyLayout } from './npy-layouts';

const DESCR: Readonly<Record<string, string>> = {
  preprocessing:
    "[('id', '<u8'), ('boardIdPositions', 'u1', (9, 9)), ('piecesInHand', 'u1', (14,)), ('moveLabel', '<f2', (1496,)), ('resultValue', '<f2')]",
  stage1:
    "[('id', '<u8'), ('boardIdPositions', 'u1', (9, 9)), ('piecesInHand', 'u1', (14,)), ('reachableSquares', 'u1', (9, 9))]",
  stage2:
    "[('id', '<u8'), ('boardIdPositions', 'u1', (9, 9)), ('piecesInHand', 'u1', (14,)), ('legalMovesLabel', 'u1', (1496,))]",
};

const header = (layout: NpyLayout, rows: number): Uint8Array => {
  const dict = `{'descr': ${DESCR[layout.name]}, 'fortran_order': False, 'shape': (${rows},), }`;
  // Pad with spaces so the data starts on a 64-byte boundary, as numpy does.
  const total = Math.ceil((10 + dict.length + 1) / 64) * 64;
  const text = dict.padEnd(total - 10 - 1, ' ') + '\n';
  const out = new Uint8Array(total);
  out.set([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0]);
  new DataView(out.buffer).setUint16(8, text.length, true);
  out.set(Buffer.from(text, 'latin1'), 10);
  return out;
};

/** Encodes stage columns as numpy structured records (maou's PRIMARY dtypes, float16 targets) with a `.npy` header. @public */
export const encodeStageNpy = (c: StageColumns, ids: BigUint64Array): Uint8Array => {
  const layout = NPY_LAYOUTS.find((l) => l.name === (c.stage === 3 ? 'preprocessing' : `stage${c.stage}`)) as NpyLayout;
  const head = header(layout, c.rows);
  const out = new Uint8Array(head.length + c.rows * layout.itemsize);
  out.set(head);
  const view = new DataView(out.buffer);
  for (let r = 0; r < c.rows; r++) {
    const at = head.length + r * layout.itemsize;
    view.setBigUint64(at, ids[r] ?? 0n, true);
    out.set(c.boardIdPositions.subarray(r * 81, r * 81 + 81), at + 8);
    out.set(c.piecesInHand.subarray(r * 14, r * 14 + 14), at + 89);
    if (c.stage === 1) out.set(c.reachableSquares.subarray(r * 81, r * 81 + 81), at + 103);
    if (c.stage === 2) out.set(c.legalMovesLabel.subarray(r * 1496, r * 1496 + 1496), at + 103);
    if (c.stage === 3) {
      for (let k = 0; k < 1496; k++) {
        const v = c.moveLabel[r * 1496 + k] ?? 0;
        if (v !== 0) view.setUint16(at + 103 + 2 * k, floatToHalf(v), true);
      }
      view.setUint16(at + 3095, floatToHalf(c.resultValue[r] ?? 0), true);
    }
  }
  return out;
};

/** Writes stage columns as a new `.npy` file (an existing one is never replaced). @public */
export const writeStageNpy = async (path: string, c: StageColumns, ids: BigUint64Array): Promise<number> => {
  const bytes = encodeStageNpy(c, ids);
  await writeFileAtomic(path, bytes, NEW_FILE);
  return bytes.length;
};
