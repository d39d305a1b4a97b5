import type { Stage, StageColumns } from '@maou/bench-domain';
import { spawnWorker } from '@maou/bench-host';
import type { StageRecords } from '@maou/bench-infra';

// Copies into this realm's typed arrays: a worker's message arrives as the main realm's, which jest's vm context
// does not recognise with `instanceof`.
const own = <T extends Uint8Array | Float32Array | BigUint64Array>(a: T, make: (n: number) => T): T => {
  const out = make(a.length);
  out.set(a as never);
  return out;
};
const u8 = (a: Uint8Array): Uint8Array => own(a, (n) => new Uint8Array(n));
const f32 = (a: Float32Array): Float32Array => own(a, (n) => new Float32Array(n));

/** Test-only: `buildSampleRecords` in a worker thread (same code, full speed), handed back as this realm's arrays. */
export const buildSampleRecordsOffThread = async (
  stage: Stage,
  positions: number,
  seed: number,
): Promise<StageRecords<StageColumns>> => {
  const worker = spawnWorker(__filename, 'sample-records-worker', { stage, positions, seed });
  try {
    const r = await new Promise<StageRecords<StageColumns>>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    const c = r.columns;
    const base = { rows: c.rows, boardIdPositions: u8(c.boardIdPositions), piecesInHand: u8(c.piecesInHand) };
    const columns: StageColumns =
      c.stage === 1
        ? { ...base, stage: 1, reachableSquares: u8(c.reachableSquares) }
        : c.stage === 2
          ? { ...base, stage: 2, legalMovesLabel: u8(c.legalMovesLabel) }
          : {
              ...base,
              stage: 3,
              moveLabel: f32(c.moveLabel),
              resultValue: f32(c.resultValue),
              ...(c.moveWinRate ? { moveWinRate: f32(c.moveWinRate) } : {}),
              ...(c.bestMoveWinRate ? { bestMoveWinRate: f32(c.bestMoveWinRate) } : {}),
            };
    return { columns, ids: own(r.ids, (n) => new BigUint64Array(n)) };
  } finally {
    await worker.terminate();
  }
};
