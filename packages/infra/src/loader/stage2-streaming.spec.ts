import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DataLoaderConfig } from '@maou/bench-domain';
import { buildSampleRecords, writeStageShards } from '../sample-data/generate-sample-data';
import { LocalFileSourceAdapter } from '../sources/local/local-file-source.adapter';
import { DataLoaderAdapter } from './data-loader.adapter';

// Three real Stage 2 files of 20 rows, streamed: maou concatenates a producer's files (up to 10) before batching.
const dir = mkdtempSync(join(tmpdir(), 'maou-stage2-stream-'));
beforeAll(() => writeStageShards(buildSampleRecords(2, 60, 5), dir, 20, 'lz4'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const config: DataLoaderConfig = {
  batchSize: 16,
  workers: 0,
  prefetchFactor: 2,
  pinMemory: false,
  persistentWorkers: false,
  streaming: true,
  shuffle: true,
  testRatio: 0,
  cacheMode: 'file',
  devicePrefetch: 0,
  seed: 1,
};

describe('Stage 2 streaming batches span files as in maou (#25 peer check)', () => {
  it.each([
    [0, [16, 16, 16, 12]],
    [2, [16, 16, 8, 16, 4]],
  ] as const)('given %i workers, then the epoch has the counted batches, of these sizes', async (workers, sizes) => {
    const loader = await DataLoaderAdapter.create(new LocalFileSourceAdapter(2, [dir]), { ...config, workers });
    const seen: number[] = [];
    for await (const b of loader.iterate('train', 0)) seen.push(b.size);
    expect(loader.batchesPerEpoch.train).toBe(sizes.length);
    expect(seen.sort((a, b) => b - a)).toEqual([...sizes].sort((a, b) => b - a));
  });
});

describe('file boundaries: the loader plans every read a pass makes and tags the batch after each', () => {
  it.each([
    // the main thread reads all three files as one group, blocking the step: nothing is ready meanwhile
    [0, { readsPerEpoch: 1, leadBatches: 0, besideStep: false }, [3]],
    // two workers: files 0 and 2 as one group, file 1 alone, read beside the step with 2 × 2 batches and one stepping
    [2, { readsPerEpoch: 2, leadBatches: 5, besideStep: true }, [2, 1]],
  ] as const)(
    'given %i workers, then the plan is %o and the tagged batches open those groups',
    async (workers, plan, groups) => {
      const loader = await DataLoaderAdapter.create(new LocalFileSourceAdapter(2, [dir]), { ...config, workers });
      try {
        expect(loader.fileBoundaries('train')).toEqual(plan);
        const opened = [];
        for await (const b of loader.iterate('train', 0)) if (b.opened) opened.push(b.opened);
        expect(opened.map((o) => o.files).sort((a, b) => b - a)).toEqual(groups);
        for (const o of opened) expect(o.readMs).toBeGreaterThan(0);
      } finally {
        await loader.close();
      }
    },
  );

  it('given map-style loading, then no read is planned mid-pass', async () => {
    const loader = await DataLoaderAdapter.create(new LocalFileSourceAdapter(2, [dir]), {
      ...config,
      streaming: false,
    });
    expect(loader.fileBoundaries('train')).toBeNull();
    for await (const b of loader.iterate('train', 0)) expect(b.opened).toBeUndefined();
    await loader.close();
  });
});
