import type { StageColumns } from '@maou/bench-domain';

// A copy of a typed array over a SharedArrayBuffer: workers then see the same memory instead of their own copy.
const share = <T extends Uint8Array | Float32Array>(a: T, make: (b: SharedArrayBuffer) => T): T => {
  const out = make(new SharedArrayBuffer(a.byteLength));
  out.set(a);
  return out;
};
const u8 = (a: Uint8Array): Uint8Array => share(a, (b) => new Uint8Array(b));
const f32 = (a: Float32Array): Float32Array => share(a, (b) => new Float32Array(b));

/** Columns moved into shared memory, for `memory` cache mode with workers. @internal */
export const toSharedColumns = (c: StageColumns): StageColumns => {
  const base = { rows: c.rows, boardIdPositions: u8(c.boardIdPositions), piecesInHand: u8(c.piecesInHand) };
  if (c.stage === 3) return { ...base, stage: 3, moveLabel: f32(c.moveLabel), resultValue: f32(c.resultValue) };
  if (c.stage === 1) return { ...base, stage: 1, reachableSquares: u8(c.reachableSquares) };
  return { ...base, stage: 2, legalMovesLabel: u8(c.legalMovesLabel) };
};
