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
