import { rowsToStageColumns } from './bigquery-rows';

const row = (over: Record<string, unknown> = {}): Record<string, unknown> => ({
  boardIdPositions: Array.from({ length: 81 }, (_, i) => i % 29),
  piecesInHand: Buffer.from(Array.from({ length: 14 }, (_, i) => i % 3)),
  moveLabel: Buffer.from(new Float32Array(Array.from({ length: 1496 }, (_, i) => (i === 7 ? 1 : 0))).buffer),
  resultValue: 0.5,
  ...over,
});

describe('rowsToStageColumns', () => {
  it('given REPEATED, BYTES and scalar cells, when converted, then Stage 3 columns hold the values row-major', () => {
    const r = rowsToStageColumns([row(), row({ resultValue: 1 })], 3, 'T', 0);
    if (!r.ok || r.value.stage !== 3) throw new Error('expected Stage 3 columns');
    expect(r.value.rows).toBe(2);
    expect(r.value.boardIdPositions[81 + 30]).toBe(1);
    expect(r.value.moveLabel[1496 + 7]).toBe(1);
    expect(Array.from(r.value.resultValue)).toEqual([0.5, 1]);
  });

  it('given a list of the wrong length, when converted, then the error names table, column and row', () => {
    const r = rowsToStageColumns(
      [row(), row({ piecesInHand: [1, 2, 3] })],
      3,
      'BigQuery table d.t, shard rows10-15',
      10,
    );
    expect(r.ok ? '' : r.error.message).toBe(
      'BigQuery table d.t, shard rows10-15, column piecesInHand, row 11: has 3 values, expected 14',
    );
  });

  it('given a missing column, when converted, then the error says it is null', () => {
    const r = rowsToStageColumns([row({ resultValue: null })], 3, 'T', 0);
    expect(r.ok ? '' : r.error.message).toBe('T, column resultValue, row 0: is null');
  });
});
