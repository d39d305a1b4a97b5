import { rm } from 'node:fs/promises';
import { MemoryLogger, RecordingProgress } from '@maou/bench-use-cases/testing';
import { SystemClockAdapter } from '../../clock/system-clock.adapter';
import { DataSourceRegistryAdapter, SourceRegistry } from '../source-registry';
import { bigquerySource, createBigQueryDataSource, type BigQuerySpec } from '../bigquery/bigquery.source';
import { s3Source, type S3Spec } from '../s3/s3.source';
import { cloudSource } from './cloud-source';
import { CloudSourceFailure } from './cloud-source-error';
import {
  startS3rver,
  S3RVER_CREDENTIALS,
  type S3rverHarness,
  FIXTURES,
  fixtureBytes,
  listTree,
  tempDir,
} from '@maou/bench-testkit/sources';
import { join } from 'node:path';

describe('cloud sources in the datasource registry', () => {
  let s3: S3rverHarness;
  let cache: string;
  const logger = new MemoryLogger();
  const registry = (progress = new RecordingProgress()): DataSourceRegistryAdapter => {
    const retry = { attempts: 2, baseDelayMs: 1, maxDelayMs: 1 };
    const sources = new SourceRegistry()
      .register(cloudSource(s3Source, s3Source.create, { retry, client: { credentials: S3RVER_CREDENTIALS } }))
      .register(cloudSource(bigquerySource, createBigQueryDataSource, { retry }));
    return new DataSourceRegistryAdapter(sources, { logger, clock: new SystemClockAdapter(), progress });
  };
  const spec = (bucket: string, over: { dataName?: string; seed?: number; localCacheDir?: string } = {}): S3Spec => ({
    kind: 's3',
    label: 'S3',
    sampled: true,
    streamable: false,
    bucket,
    prefix: 'runs',
    dataName: 'stage1',
    localCacheDir: cache,
    maxWorkers: 2,
    enableBundling: false,
    bundleSizeGb: 1,
    seed: 42,
    endpoint: s3.endpoint,
    ...over,
  });

  beforeAll(async () => {
    s3 = await startS3rver('wired');
    for (const [i, f] of FIXTURES.entries()) await s3.put(`runs/stage1/part${i}.feather`, await fixtureBytes(f.file));
    for (let i = 0; i < 16; i += 1)
      await s3.put(`runs/many/obj${String(i).padStart(2, '0')}.feather`, await fixtureBytes(FIXTURES[i % 3].file));
  });
  afterAll(() => s3.close());
  beforeEach(async () => {
    cache = await tempDir('wired');
  });
  afterEach(() => rm(cache, { recursive: true, force: true }));

  it('given an s3 spec, when opened through the registry, then the source is prepared and reads real records', async () => {
    const progress = new RecordingProgress();
    const source = await registry(progress).open(spec('wired'), 1, 0.5);
    const shards = await source.shards();
    expect(shards).toHaveLength(1);
    // the opener hands its progress port to the source: one bytes task covering the one sampled object
    expect(progress.tasks.map((t) => [t.start.label, t.start.unit, t.start.total, t.done, t.outcome])).toEqual([
      ['download s3://wired/runs/stage1/', 'bytes', shards[0].bytes, shards[0].bytes, 'done'],
    ]);
    expect((await source.read(shards[0])).rows).toBe(shards[0].rows);
    expect(source.ioStats()).toMatchObject({ source: 's3', objects: 1 });
  });

  it("given the run's seed in the spec, when sampling through the registry, then two seeds download different objects and a seed repeats its draw", async () => {
    // One opener for all three runs: the seed must come from each spec, not from when the opener was built.
    const open = registry();
    let run = 0;
    const sampled = async (seed: number): Promise<string[]> => {
      const dir = join(cache, `run-${(run += 1)}`);
      await open.open(spec('wired', { dataName: 'many', seed, localCacheDir: dir }), 1, 0.25);
      return (await listTree(dir)).filter((f) => f.endsWith('.feather'));
    };
    const [one, two, oneAgain] = [await sampled(1), await sampled(2), await sampled(1)];
    expect(one).toHaveLength(4);
    expect(two).toHaveLength(4);
    expect(two).not.toEqual(one);
    expect(oneAgain).toEqual(one);
  });

  it('given a bucket that does not exist, when opened, then it rejects with a failure naming the bucket', async () => {
    const opened = registry().open(spec('no-such-bucket'), 1, null);
    await expect(opened).rejects.toBeInstanceOf(CloudSourceFailure);
    await expect(registry().open(spec('no-such-bucket'), 1, null)).rejects.toThrow(
      /^listing s3:\/\/no-such-bucket\/runs\/stage1\/: HTTP 404: NoSuchBucket/,
    );
  });

  it('given a bigquery spec with a bad table name, when opened, then it rejects naming the flag before any request', async () => {
    const bad: BigQuerySpec = {
      kind: 'bigquery',
      label: 'BigQuery',
      sampled: true,
      streamable: false,
      datasetId: 'ds',
      tableName: 't`x',
      batchSize: 10,
      maxCachedBytes: 1000,
      seed: 1,
    };
    await expect(registry().open(bad, 3, null)).rejects.toThrow('--input-table-name: "t`x" is not a valid table name');
  });
});
