import type { DataLoaderConfig } from '@maou/bench-domain';
import { passSize, passTasks, planDataset } from './loader-plan';

const config: DataLoaderConfig = {
  batchSize: 32,
  workers: 0,
  prefetchFactor: 2,
  pinMemory: false,
  persistentWorkers: true,
  streaming: false,
  shuffle: true,
  testRatio: 0,
  cacheMode: 'file',
  devicePrefetch: 0,
  seed: 1,
};
const plan = planDataset([{ id: 'a', path: 'a.feather', rows: 1105, bytes: 1 }], config);

describe('map-style training pass, as real maou counts it (#25 peer check)', () => {
  it.each([
    [1, 35, 1105],
    [2, 35, 1105],
    [3, 34, 1088],
  ] as const)('given Stage %i, 1,105 rows at batch 32, then %i batches of %i samples', (stage, batches, samples) => {
    expect(passSize(plan, 'train', 32, stage)).toEqual({ batches, samples });
    const tasks = passTasks(plan, 'train', 0, 1, config, stage);
    const sizes = tasks.flatMap((t) => (t.kind === 'map' ? t.batches.map((b) => b.length) : []));
    expect([sizes.length, sizes.reduce((a, b) => a + b, 0)]).toEqual([batches, samples]);
  });
});

describe('streaming pass, as real maou counts it (#25 peer check)', () => {
  const files = (rows: readonly number[]) =>
    rows.map((n, i) => ({ id: `f${i}`, path: `f${i}.feather`, rows: n, bytes: 1 }));
  const streaming = (rows: readonly number[]) => planDataset(files(rows), { ...config, streaming: true });

  it('given Stage 3, then each file is cut on its own (3 files of 1,000 rows at batch 32: 96 batches)', () => {
    expect(passSize(streaming([1000, 1000, 1000]), 'train', 32, 3).batches).toBe(96);
  });

  it('given files of 2,000, 2,000 and 1,000 rows, then maou holds out the file random.Random(42) picks: 126 training batches at 32', () => {
    // maou shuffles the sorted paths with Random(42) and holds out the last: part-002, the short file
    const unequal = [2000, 2000, 1000].map((n, i) => ({
      id: `f${i}`,
      path: `/d/part-00${i}.feather`,
      rows: n,
      bytes: 1,
    }));
    for (const seed of [1, 7]) {
      const plan = planDataset(unequal, { ...config, streaming: true, testRatio: 0.2, seed });
      expect(plan.mode === 'streaming' && plan.files.validation.map((f) => f.id)).toEqual(['f2']);
      expect(passSize(plan, 'train', 32, 3)).toEqual({ batches: 126, samples: 4000 });
      expect(passSize(plan, 'validation', 32, 3)).toEqual({ batches: 32, samples: 1000 });
    }
  });

  it("given Stage 2, then a producer's files are cut in groups of up to 10 (maou's StreamingStage2Dataset)", () => {
    expect(passSize(streaming([1000, 1000, 1000]), 'train', 32, 2).batches).toBe(94);
    // 12 files, one producer: a group of 10 and one of 2; two producers: 6 files each, one group each.
    const twelve = streaming(Array.from({ length: 12 }, () => 100));
    expect(passSize(twelve, 'train', 32, 2, 1).batches).toBe(Math.ceil(1000 / 32) + Math.ceil(200 / 32));
    expect(passSize(twelve, 'train', 32, 2, 2).batches).toBe(2 * Math.ceil(600 / 32));
  });
});
