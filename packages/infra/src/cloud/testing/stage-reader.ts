import { readFile } from 'node:fs/promises';
import { tableFromIPC, type Vector } from 'apache-arrow';
import type { Stage, StageColumns } from '@maou/bench-domain';
import { ensureArrowCodecs } from '../../arrow/arrow-codecs';

const flat = (v: Vector | null, rows: number, width: number): Uint8Array => {
  const out = new Uint8Array(rows * width);
  if (v === null) return out;
  let k = 0;
  const walk = (x: unknown): void => {
    if (typeof x === 'number') out[k++] = x;
    else for (const y of x as Iterable<unknown>) walk(y);
  };
  for (let r = 0; r < rows; r += 1) walk(v.get(r));
  return out;
};

/** Test-side Stage 1 reader, enough to check row content after transport and bundling. */
export const stageReader = async (path: string, stage: Stage): Promise<StageColumns> => {
  if (stage !== 1) throw new Error('the test reader decodes Stage 1 only');
  ensureArrowCodecs();
  const t = tableFromIPC(await readFile(path));
  return {
    stage: 1,
    rows: t.numRows,
    boardIdPositions: flat(t.getChild('boardIdPositions'), t.numRows, 81),
    piecesInHand: flat(t.getChild('piecesInHand'), t.numRows, 14),
    reachableSquares: flat(t.getChild('reachableSquares'), t.numRows, 81),
  };
};
