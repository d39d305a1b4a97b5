import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DataLoaderConfig } from '@maou/bench-domain';
import { buildSampleRecords, writeStageShards } from '../sample-data/generate-sample-data';
import { LocalFileSourceAdapter } from '../sources/local/local-file-source.adapter';
import { DataLoaderAdapter } from './data-loader.adapter';

// Three real Stage 2 files of 20 rows, streamed: maou concatenates a producer's files (up to 10) before batching.
const dir = mkdtempSync(join(tmpdir(), 'maou-stage2-stream-'));
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
  beforeAll(async () => {
    await writeStageShards(buildSampleRecords(2, 60, 5), dir, 20, 'lz4');
  });

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
