import { epochFileShards, fileLevelSplit, mapStyleBatches, rowLevelSplit } from './dataset-plan';

const shards = Array.from({ length: 10 }, (_, i) => ({ id: `f${i}`, path: `/d/f${i}.feather`, rows: 100, bytes: 1 }));

describe('dataset plan', () => {
  it('given files in any order, when split, then the split is the same and validation gets floor(n × r) files', () => {
    const a = fileLevelSplit(shards, 0.2);
    const b = fileLevelSplit([...shards].reverse(), 0.2);
    expect(b).toEqual(a);
    expect(a.validation).toHaveLength(2);
    expect(new Set([...a.train, ...a.validation].map((s) => s.id)).size).toBe(10);
    expect(fileLevelSplit(shards.slice(0, 2), 0.9).train).toHaveLength(1);
  });

  it('given W workers, when an epoch is dealt, then every file goes to exactly one worker', () => {
    for (const w of [1, 3, 4]) {
      const parts = epochFileShards(10, w, 5, 2, true);
      expect(parts.flat().sort((x, y) => x - y)).toEqual([...Array(10).keys()]);
    }
    expect(epochFileShards(10, 2, 5, 0, true)).not.toEqual(epochFileShards(10, 2, 5, 1, true));
  });

  it('given a row split and batches, when training drops the tail, then validation keeps it', () => {
    const { train, validation } = rowLevelSplit(105, 0.2, 9);
    expect(train.length).toBe(84);
    expect(mapStyleBatches(train, 10, { shuffle: true, dropLast: true, seed: 1, epoch: 0 })).toHaveLength(8);
    expect(
      mapStyleBatches(validation, 10, { shuffle: false, dropLast: false, seed: 1, epoch: 0 }).flatMap((b) => [...b]),
    ).toEqual([...validation]);
  });
});
