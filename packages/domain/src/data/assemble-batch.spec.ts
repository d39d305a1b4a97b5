import { allocateBatch, assembleBatch, batchBuffers, copyBatchRows, fillBatchRows } from './assemble-batch';
import type { Stage1Columns, Stage3Columns } from './stage-columns';

const stage3 = (rows: number): Stage3Columns => ({
  stage: 3,
  rows,
  boardIdPositions: Uint8Array.from({ length: rows * 81 }, (_, i) => Math.floor(i / 81)),
  piecesInHand: Uint8Array.from({ length: rows * 14 }, (_, i) => Math.floor(i / 14) + 1),
  moveLabel: Float32Array.from({ length: rows * 1496 }, (_, i) => (i % 1496 === Math.floor(i / 1496) ? 1 : 0)),
  resultValue: Float32Array.from({ length: rows }, (_, i) => i / 10),
});

describe('assembleBatch', () => {
  it('given rows in any order, when assembled, then each batch row holds its source row as int32/float32', () => {
    const b = assembleBatch(stage3(6), [4, 5, 1]);
    expect(b.size).toBe(3);
    expect(b.boardIds).toBeInstanceOf(Int32Array);
    expect([b.boardIds[0], b.boardIds[81], b.boardIds[162 + 80]]).toEqual([4, 5, 1]);
    expect([b.hands[0], b.hands[14], b.hands[28]]).toEqual([5, 6, 2]);
    if (b.targets.stage !== 3) throw new Error('stage');
    expect(Array.from(b.targets.resultValue)).toEqual([0.4, 0.5, 0.1].map(Math.fround));
    expect(b.targets.moveLabel[2 * 1496 + 1]).toBe(1);
  });

  it('given buffers of an earlier batch, when a shorter batch is assembled into them, then it reuses that memory', () => {
    const first = assembleBatch(stage3(6), [0, 1, 2, 3]);
    const buffers = batchBuffers(first);
    const second = assembleBatch(stage3(6), [5, 2], buffers);
    expect(second.boardIds.buffer).toBe(buffers[0]);
    expect(second.boardIds.length).toBe(2 * 81);
    expect(second.boardIds[0]).toBe(5);
  });

  it('given Stage 1 rows from two sources, when filled at offsets, then targets become float 0/1 per square', () => {
    const s1 = (v: number): Stage1Columns => ({
      stage: 1,
      rows: 1,
      boardIdPositions: new Uint8Array(81).fill(v),
      piecesInHand: new Uint8Array(14),
      reachableSquares: new Uint8Array(81).fill(v),
    });
    const b = allocateBatch(1, 2);
    fillBatchRows(s1(1), [0], b, 1);
    fillBatchRows(s1(0), [0], b, 0);
    expect(b.targets.stage === 1 && [b.targets.reachableSquares[0], b.targets.reachableSquares[81]]).toEqual([0, 1]);
    expect(() => fillBatchRows(stage3(1), [0], b)).toThrow(/stage 3 rows cannot fill a stage 1 batch/);
  });

  it('given a batch over reused buffers, when rows are copied out, then the copy holds those rows in buffers of its own', () => {
    const b = assembleBatch(stage3(6), [0, 1, 2, 3, 4]);
    const part = copyBatchRows(b, 2, 4);
    expect(part.size).toBe(2);
    expect([part.boardIds[0], part.boardIds[81], part.hands[14]]).toEqual([2, 3, 4]);
    expect(part.boardIds.buffer.byteLength).toBe(2 * 81 * 4);
    if (part.targets.stage !== 3) throw new Error('stage');
    expect(Array.from(part.targets.resultValue)).toEqual([0.2, 0.3].map(Math.fround));
    expect(part.targets.moveLabel[1496 + 3]).toBe(1);
    batchBuffers(part).forEach((buffer) => expect(batchBuffers(b)).not.toContain(buffer));
  });
});
