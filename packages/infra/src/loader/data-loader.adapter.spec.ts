import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DataLoaderConfig } from '@maou/bench-domain';
import { DataLoaderAdapter } from './data-loader.adapter';
import {
  batchRowIds,
  LOGGED_RAW_READER,
  RAW_READER,
  RawFileSource,
  stage3Rows,
  writeRawStage3,
} from '@maou/bench-testkit/loader';

const ROWS = [37, 50, 23, 41, 60];
const base: DataLoaderConfig = {
  batchSize: 16,
  workers: 0,
  prefetchFactor: 2,
  pinMemory: false,
  persistentWorkers: true,
  streaming: true,
  shuffle: true,
  testRatio: 0.2,
  cacheMode: 'file',
  devicePrefetch: 0,
  seed: 7,
};

let dir: string;
let files: { path: string; rows: number }[];
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'maou-loader-'));
  files = [];
  let id = 0;
  for (const [i, rows] of ROWS.entries()) {
    const path = join(dir, `part-${i}.raw`);
    await writeRawStage3(path, stage3Rows(id, rows));
    files.push({ path, rows });
    id += rows;
  }
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const open = (cfg: Partial<DataLoaderConfig>, list = files) =>
  DataLoaderAdapter.create(new RawFileSource(list), { ...base, ...cfg }, { reader: RAW_READER });
const ids = batchRowIds;
const pass = async (
  cfg: Partial<DataLoaderConfig>,
  split: 'train' | 'validation' = 'train',
  epoch = 0,
): Promise<number[][]> => {
  const loader = await open(cfg);
  try {
    const out: number[][] = [];
    for await (const b of loader.iterate(split, epoch)) out.push(ids(b));
    expect(out).toHaveLength(loader.batchesPerEpoch[split]);
    return out;
  } finally {
    await loader.close();
  }
};
const fileOf = (id: number): number => {
  let acc = 0;
  return ROWS.findIndex((r) => (acc += r) > id);
};

describe('streaming loader', () => {
  it('given 5 files, when a training epoch is read in the main thread, then every training row comes once and no batch spans files', async () => {
    const loader = await open({});
    expect(loader.describe()).toMatchObject({ mode: 'streaming', trainFiles: 4, validationFiles: 1, workers: 0 });
    await loader.close();
    const batches = await pass({});
    const all = batches.flat();
    expect(new Set(all).size).toBe(all.length);
    expect(all.length).toBe(loader.samplesPerEpoch.train);
    for (const b of batches) expect(new Set(b.map(fileOf)).size).toBe(1);
  });

  it('given two worker threads, when an epoch is read, then shards do not overlap and cover the same rows as the main thread', async () => {
    const main = (await pass({})).flat().sort((a, b) => a - b);
    const workers = (await pass({ workers: 2 })).flat();
    expect(new Set(workers).size).toBe(workers.length);
    expect([...workers].sort((a, b) => a - b)).toEqual(main);
  });

  it('given the same seed, when read twice, then the order repeats; another epoch or seed gives another order', async () => {
    const a = await pass({ workers: 2 });
    expect(await pass({ workers: 2 })).toEqual(a);
    expect(await pass({ workers: 2 }, 'train', 1)).not.toEqual(a);
    expect(await pass({ workers: 2, seed: 8 })).not.toEqual(a);
  });

  it('given shuffle off, when the validation split is read, then rows come in file order', async () => {
    const v = (await pass({ workers: 1 }, 'validation')).flat();
    expect(v).toEqual([...v].sort((x, y) => x - y));
  });
});

describe('map-style loader', () => {
  it('given no streaming, when read with 0 or 2 workers and file or memory cache, then the batch order is identical', async () => {
    const ref = await pass({ streaming: false });
    const n = Math.floor(ROWS.reduce((s, r) => s + r, 0) * 0.8);
    expect(ref).toHaveLength(Math.floor(n / 16));
    expect(await pass({ streaming: false, workers: 2 })).toEqual(ref);
    expect(await pass({ streaming: false, workers: 2, cacheMode: 'memory' })).toEqual(ref);
    const val = await pass({ streaming: false, workers: 2 }, 'validation');
    expect(val.flat().length + n).toBe(ROWS.reduce((s, r) => s + r, 0));
  });

  it('given file cache and 3 workers, when two epochs are read, then each shard is decoded once for all workers and the order is unchanged', async () => {
    const log = join(dir, 'reads.log');
    await writeFile(log, '');
    const loader = await DataLoaderAdapter.create(
      new RawFileSource(files),
      { ...base, streaming: false, workers: 3 },
      { reader: LOGGED_RAW_READER },
    );
    try {
      const epochs: number[][][] = [];
      for (const epoch of [0, 1]) {
        const out: number[][] = [];
        for await (const b of loader.iterate('train', epoch)) out.push(ids(b));
        epochs.push(out);
      }
      const reads = (await readFile(log, 'utf8')).trim().split('\n');
      // Shuffled batches touch every shard from every worker; before, each worker decoded its own copy of each.
      expect(reads.sort()).toEqual(files.map((f) => f.path).sort());
      expect(epochs[0]).toEqual(await pass({ streaming: false }));
      expect(epochs[1]).toEqual(await pass({ streaming: false }, 'train', 1));
    } finally {
      await loader.close();
    }
  });
});

describe('loader thread counters (--enable-resource-monitoring)', () => {
  const epochOf = async (loader: DataLoaderAdapter): Promise<number> => {
    let batches = 0;
    for await (const b of loader.iterate('train', 0)) batches += b.size > 0 ? 1 : 0;
    return batches;
  };

  it('given map-style file cache and 2 workers, when an epoch is read, then each worker reports busy time, its own heap and shard lookups that hit after the first', async () => {
    const loader = await open({ streaming: false, workers: 2 });
    try {
      const before = await loader.threadStats();
      const batches = await epochOf(loader);
      const after = await loader.threadStats();
      expect(after.map((t) => t.thread)).toEqual([0, 1]);
      for (const [i, t] of after.entries()) {
        expect(t.busyMs).toBeGreaterThan(before[i]!.busyMs);
        expect(t.heapUsedBytes).toBeGreaterThan(0);
        // every batch of a worker looks up at least one shard; at most 5 lookups (one per shard) decode it
        expect(t.cacheHits! + t.cacheMisses!).toBeGreaterThanOrEqual(batches / 2 - 1);
        expect(t.cacheMisses).toBeLessThanOrEqual(ROWS.length);
        expect(t.cacheHits).toBeGreaterThan(0);
      }
    } finally {
      await loader.close();
    }
  });

  it('given streaming in the main thread, when read, then one main-thread entry with no cache figures', async () => {
    const loader = await open({ workers: 0 });
    try {
      await epochOf(loader);
      const [main, ...rest] = await loader.threadStats();
      expect(rest).toEqual([]);
      expect(main).toMatchObject({ thread: 'main', cacheHits: null, cacheMisses: null });
      expect(main!.busyMs).toBeGreaterThan(0);
    } finally {
      await loader.close();
    }
  });
});

describe('worker behaviour', () => {
  it('given a corrupt file, when a worker reads it, then the iteration rejects with the worker error instead of hanging', async () => {
    const bad = join(dir, 'bad.raw');
    await writeFile(bad, Buffer.alloc(64));
    const loader = await open({ workers: 2, shuffle: false, testRatio: 0 }, [
      ...files.slice(0, 2),
      { path: bad, rows: 4 },
    ]);
    const drain = async () => {
      for await (const _ of loader.iterate('train', 0)) {
        /* consume */
      }
    };
    await expect(drain()).rejects.toThrow(/bad\.raw: not a raw stage 3 test file/);
    await loader.close();
    // Map-style, file cache: the shard is decoded for all workers by one of them; its failure still ends the pass.
    const shared = await open({ workers: 2, streaming: false, testRatio: 0 }, [
      ...files.slice(0, 2),
      { path: bad, rows: 4 },
    ]);
    const drainShared = async () => {
      for await (const _ of shared.iterate('train', 0)) {
        /* consume */
      }
    };
    await expect(drainShared()).rejects.toThrow(/bad\.raw: not a raw stage 3 test file/);
    await shared.close();
  });

  it('given a reader module that cannot load, when workers start, then the iteration rejects naming the worker', async () => {
    const loader = await DataLoaderAdapter.create(
      new RawFileSource(files),
      { ...base, workers: 1 },
      { reader: { module: join(dir, 'missing.js'), exportName: 'x' } },
    );
    const drain = async () => {
      for await (const _ of loader.iterate('train', 0)) {
        /* consume */
      }
    };
    await expect(drain()).rejects.toThrow(/loader worker 0 failed/);
    await loader.close();
  });

  it('given pinned memory and released batches, when reading on, then workers write into the returned buffers', async () => {
    const loader = await open({ workers: 1, pinMemory: true, shuffle: false });
    let reused = 0;
    for await (const b of loader.iterate('train', 0)) {
      if (b.boardIds.buffer.byteLength > b.boardIds.byteLength) reused++;
      loader.release(b);
      expect(b.boardIds.length).toBe(0); // transferred back: detached here
    }
    expect(reused).toBeGreaterThan(0);
    await loader.close();
  });

  it('given a consumer that stops taking batches, when workers run ahead, then at most workers × prefetch batches wait', async () => {
    const loader = await open({ workers: 2, prefetchFactor: 2, batchSize: 4 });
    const it = loader.iterate('train', 0);
    await it.next();
    await new Promise((r) => setTimeout(r, 400));
    expect(loader.bufferedBatches()).toBeLessThanOrEqual(4);
    expect(loader.bufferedBatches()).toBeGreaterThan(0);
    await it.return?.(undefined);
    await loader.close();
  });
});
