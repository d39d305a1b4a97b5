import type { BatchTargets, HostBatch } from './host-batch';
import { BOARD_SQUARES, HAND_KINDS, MOVE_LABELS, type Stage } from './stage';
import type { StageColumns } from './stage-columns';

/** Float32 values per row of each target of a stage, in `HostBatch` order. @public */
export const targetWidths = (stage: Stage): readonly number[] =>
  stage === 3 ? [MOVE_LABELS, 1] : stage === 1 ? [BOARD_SQUARES] : [MOVE_LABELS];

/** The buffers behind a batch, in a fixed order: board ids, hands, then targets. @public */
export const batchBuffers = (batch: HostBatch): ArrayBuffer[] => {
  const t = batch.targets;
  const targets = t.stage === 3 ? [t.moveLabel, t.resultValue] : t.stage === 1 ? [t.reachableSquares] : [t.legalMoves];
  return [batch.boardIds, batch.hands, ...targets].map((a) => a.buffer as ArrayBuffer);
};

// A view of n elements over a reused buffer when it is large enough, else a fresh array.
const view = <T extends Int32Array | Float32Array>(
  make: (b: ArrayBuffer, n: number) => T,
  n: number,
  reuse?: ArrayBuffer,
): T => (reuse !== undefined && reuse.byteLength >= n * 4 ? make(reuse, n) : make(new ArrayBuffer(n * 4), n));
const i32 = (b: ArrayBuffer, n: number): Int32Array => new Int32Array(b, 0, n);
const f32 = (b: ArrayBuffer, n: number): Float32Array => new Float32Array(b, 0, n);

// Copies rows of `width` values; runs of consecutive rows become one copy.
const gather = (
  src: ArrayLike<number> & { subarray(a: number, b: number): ArrayLike<number> },
  dst: Int32Array | Float32Array,
  rows: ArrayLike<number>,
  width: number,
  at: number,
): void => {
  let i = 0;
  while (i < rows.length) {
    let j = i + 1;
    while (j < rows.length && rows[j] === rows[j - 1]! + 1) j++;
    const first = rows[i]!;
    dst.set(src.subarray(first * width, (first + j - i) * width), (at + i) * width);
    i = j;
  }
};

/** A batch of `n` rows: zero-filled, or over `reuse` buffers (old contents) when they are large enough. @public */
export const allocateBatch = (stage: Stage, n: number, reuse: readonly ArrayBuffer[] = []): HostBatch => {
  const boardIds = view(i32, n * BOARD_SQUARES, reuse[0]);
  const hands = view(f32, n * HAND_KINDS, reuse[1]);
  const out = targetWidths(stage).map((w, k) => view(f32, n * w, reuse[2 + k]));
  const targets: BatchTargets =
    stage === 3
      ? { stage: 3, moveLabel: out[0]!, resultValue: out[1]! }
      : stage === 1
        ? { stage: 1, reachableSquares: out[0]! }
        : { stage: 2, legalMoves: out[0]! };
  return { stage, size: n, boardIds, hands, targets };
};

/** Writes `rows` of `columns` into `batch` starting at batch row `at`. @public */
export const fillBatchRows = (columns: StageColumns, rows: ArrayLike<number>, batch: HostBatch, at = 0): void => {
  const t = batch.targets;
  if (t.stage !== columns.stage) throw new Error(`stage ${columns.stage} rows cannot fill a stage ${t.stage} batch`);
  gather(columns.boardIdPositions, batch.boardIds, rows, BOARD_SQUARES, at);
  gather(columns.piecesInHand, batch.hands, rows, HAND_KINDS, at);
  if (columns.stage === 3 && t.stage === 3) {
    gather(columns.moveLabel, t.moveLabel, rows, MOVE_LABELS, at);
    gather(columns.resultValue, t.resultValue, rows, 1, at);
  } else if (columns.stage === 1 && t.stage === 1) {
    gather(columns.reachableSquares, t.reachableSquares, rows, BOARD_SQUARES, at);
  } else if (columns.stage === 2 && t.stage === 2) {
    gather(columns.legalMovesLabel, t.legalMoves, rows, MOVE_LABELS, at);
  }
};

/**
 * Gathers `rows` of `columns` into a batch laid out as the network consumes it. With `reuse` (buffers from
 * `batchBuffers` of an earlier batch) the batch is written into them instead of fresh memory.
 * @public
 */
export const assembleBatch = (
  columns: StageColumns,
  rows: ArrayLike<number>,
  reuse: readonly ArrayBuffer[] = [],
): HostBatch => {
  const batch = allocateBatch(columns.stage, rows.length, reuse);
  fillBatchRows(columns, rows, batch);
  return batch;
};

/** Rows [start, end) of a batch, copied into buffers of their own (so they can be transferred). @public */
export const copyBatchRows = (batch: HostBatch, start: number, end: number): HostBatch => {
  const rows = <T extends Int32Array | Float32Array>(a: T, width: number): T =>
    a.slice(start * width, end * width) as T;
  const t = batch.targets;
  const targets: BatchTargets =
    t.stage === 3
      ? { stage: 3, moveLabel: rows(t.moveLabel, MOVE_LABELS), resultValue: rows(t.resultValue, 1) }
      : t.stage === 1
        ? { stage: 1, reachableSquares: rows(t.reachableSquares, BOARD_SQUARES) }
        : { stage: 2, legalMoves: rows(t.legalMoves, MOVE_LABELS) };
  return {
    stage: batch.stage,
    size: end - start,
    boardIds: rows(batch.boardIds, BOARD_SQUARES),
    hands: rows(batch.hands, HAND_KINDS),
    targets,
  };
};
