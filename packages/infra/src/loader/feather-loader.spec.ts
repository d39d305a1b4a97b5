import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DataLoaderConfig } from '@maou/bench-domain';
import { writeStageFeather } from '../arrow/feather-writer';
import { LocalFileSourceAdapter } from '../sources/local/local-file-source.adapter';
import { DataLoaderFactoryAdapter } from './data-loader-factory.adapter';
import { batchRowIds, stage3Rows } from '@maou/bench-testkit/loader';

const config: DataLoaderConfig = {
  batchSize: 32,
  workers: 2,
  prefetchFactor: 2,
  pinMemory: true,
  persistentWorkers: false,
  streaming: true,
  shuffle: true,
  testRatio: 0.25,
  cacheMode: 'file',
  devicePrefetch: 0,
  seed: 3,
};

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'maou-feather-loader-'));
  for (let i = 0; i < 4; i++)
    await writeStageFeather(join(dir, `s3-${i}.feather`), stage3Rows(i * 100, 70 + i), new BigUint64Array(70 + i));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('loader over real .feather files', () => {
  it('given Stage 3 feather files, when workers read them with readStageFile, then batches carry the written rows', async () => {
    const loader = await new DataLoaderFactoryAdapter().create(new LocalFileSourceAdapter(3, [dir]), config);
    const seen: number[] = [];
    for (const epoch of [0, 1]) {
      for await (const b of loader.iterate('train', epoch)) {
        if (b.targets.stage !== 3) throw new Error('stage');
        const ids = batchRowIds(b);
        // hands, the one-hot move label and the value were written from the same id
        ids.forEach((id, r) => {
          expect(b.hands[r * 14]).toBe(id % 3);
          expect(b.targets.stage === 3 && b.targets.moveLabel[r * 1496 + (id % 1496)]).toBe(1);
          expect(b.targets.stage === 3 && b.targets.resultValue[r]).toBe((id % 3) / 2);
        });
        if (epoch === 0) seen.push(...ids);
        loader.release?.(b);
      }
    }
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.length).toBe(loader.samplesPerEpoch.train);
    await loader.close();
  });
});
