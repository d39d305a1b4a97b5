import { readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { StageColumns } from '@maou/bench-domain';
import { MemoryLogger, RecordingProgress } from '@maou/bench-use-cases/testing';
import { SystemClockAdapter } from '../../clock/system-clock.adapter';
import type { CloudDataSource } from '../shared/cloud-source';
import { createBigQueryDataSource, type BigQuerySpec } from './bigquery.source';
import {
  startFakeBigQuery,
  type FakeBigQueryServer,
  type FakeField,
  type FakeRow,
  startFaultProxy,
  type FaultProxy,
  tempDir,
  FIXTURES,
  fixtureBytes,
} from '@maou/bench-testkit/sources';
import { DataLoaderAdapter } from '../../loader/data-loader.adapter';
import { mulberry32 } from '@maou/bench-domain';

const FIELDS: FakeField[] = [
  { name: 'boardIdPositions', type: 'INTEGER', mode: 'REPEATED' },
  { name: 'piecesInHand', type: 'BYTES' },
  { name: 'reachableSquares', type: 'INTEGER', mode: 'REPEATED' },
  { name: 'day', type: 'DATE' },
  { name: 'grp', type: 'STRING' },
];
const rnd = mulberry32(11);
const ints = (n: number, max: number): number[] => Array.from({ length: n }, () => Math.floor(rnd() * (max + 1)));
const ROWS: FakeRow[] = Array.from({ length: 23 }, (_, i) => ({
  boardIdPositions: ints(81, 28),
  piecesInHand: Buffer.from(ints(14, 4)),
  reachableSquares: ints(81, 1),
  day: ['2026-01-01', '2026-01-02', '2026-01-03'][i % 3],
  grp: i < 9 ? 'o\'hara"; DROP TABLE x; --' : 'plain',
}));
// Offline credentials: the client asks this object for headers and never reaches Google.
const authClient = { getRequestHeaders: async () => new Headers({ authorization: 'Bearer offline-test-token' }) };

const expectRows = (cols: StageColumns, rows: readonly FakeRow[]): void => {
  expect(cols.rows).toBe(rows.length);
  expect(Array.from(cols.boardIdPositions)).toEqual(rows.flatMap((r) => r.boardIdPositions as number[]));
  expect(Array.from(cols.piecesInHand)).toEqual(rows.flatMap((r) => Array.from(r.piecesInHand as Buffer)));
  expect(cols.stage === 1 ? Array.from(cols.reachableSquares) : null).toEqual(
    rows.flatMap((r) => r.reachableSquares as number[]),
  );
};

describe('BigQuery source with @google-cloud/bigquery against a loopback BigQuery REST API', () => {
  let bq: FakeBigQueryServer;
  let proxy: FaultProxy;
  let cache: string;
  let logger: MemoryLogger;
  let progress: RecordingProgress;

  const spec = (over: Partial<BigQuerySpec> = {}): BigQuerySpec => ({
    kind: 'bigquery',
    label: 'BigQuery',
    sampled: true,
    streamable: false,
    datasetId: 'maou_ds',
    tableName: 'stage1_rows',
    batchSize: 5,
    maxCachedBytes: 500 * 2 ** 20,
    seed: 3,
    localCacheDir: cache,
    apiEndpoint: proxy.url,
    projectId: 'test-project',
    ...over,
  });
  // A deadline per API call, far above a loopback answer even on a loaded machine; the stall below waits it out once.
  const open = async (
    s = spec(),
    sampleRatio: number | null = null,
    callTimeoutMs = 1_500,
  ): Promise<CloudDataSource> => {
    const r = await createBigQueryDataSource(
      s,
      1,
      { logger, clock: new SystemClockAdapter(), progress },
      {
        sampleRatio,
        retry: { attempts: 5, baseDelayMs: 1, maxDelayMs: 2 },
        retryHooks: { sleep: () => Promise.resolve(), random: () => 0.5 },
        client: { clientOptions: { authClient }, callTimeoutMs },
      },
    );
    if (!r.ok) throw new Error(r.error.message);
    return r.value;
  };

  /** A source whose cache budget holds about two pages (one page's size measured by a first, unbounded run). */
  const twoPageBudget = async (): Promise<{ onePage: number; source: CloudDataSource }> => {
    const onePage = (await (await open()).shards())[0].bytes;
    await rm(cache, { recursive: true, force: true });
    return { onePage, source: await open(spec({ maxCachedBytes: onePage * 2 })) };
  };

  beforeAll(async () => {
    // Jest's module VM cannot run the `import('node-fetch')` that teeny-request 11 (under @google-cloud/bigquery 9)
    // uses in Node; its own node:http transport, chosen for Bun, is used instead. Plain Node needs no such step.
    (globalThis as Record<string, unknown>).Bun = {};
    bq = await startFakeBigQuery({
      project: 'test-project',
      dataset: 'maou_ds',
      table: 'stage1_rows',
      fields: FIELDS,
      rows: ROWS,
      serverPageCap: 3,
    });
    proxy = await startFaultProxy(bq.address);
  });
  afterAll(async () => {
    delete (globalThis as Record<string, unknown>).Bun;
    await proxy.close();
    await bq.close();
  });
  beforeEach(async () => {
    cache = await tempDir('bq');
    logger = new MemoryLogger();
    progress = new RecordingProgress();
    proxy.rules.length = 0;
    bq.queries.length = 0;
  });
  afterEach(() => rm(cache, { recursive: true, force: true }));

  it('given no key, when prepared, then pages of batchSize rows are fetched through tabledata.list, cached, and reused by a second run', async () => {
    const source = await open();
    const shards = await source.shards();
    expect(shards.map((s) => s.rows)).toEqual([5, 5, 5, 5, 3]);
    for (const [i, s] of shards.entries()) expectRows(await source.read(s), ROWS.slice(i * 5, i * 5 + 5));
    expect(source.ioStats()).toMatchObject({ source: 'bigquery', objects: 5, retries: 0, cacheHits: 0 });
    expect(bq.queries).toEqual([]);
    const again = await open();
    await again.shards();
    expect(again.ioStats()).toMatchObject({ objects: 0, cacheHits: 5 });
    // One task per preparation, counting pages (their bytes are unknown before they are written).
    expect(progress.tasks.map((t) => [t.start.label, t.start.unit, t.start.total, t.done, t.outcome, t.late])).toEqual([
      ['download BigQuery table maou_ds.stage1_rows', 'pages', 5, 5, 'done', 0],
      ['download BigQuery table maou_ds.stage1_rows', 'pages', 5, 5, 'done', 0],
    ]);
  });

  // Before, any Arrow file at a page's name was taken for an earlier page and replaced.
  it("given the user's own Arrow file at a page's name, then the run is refused naming it and the flag before any page is fetched, the file byte-identical", async () => {
    const other = await tempDir('bq-page-name');
    const [page] = await (await open(spec({ localCacheDir: other }))).shards();
    await rm(other, { recursive: true, force: true });
    const mine = join(cache, basename(page.path));
    const theirs = await fixtureBytes(FIXTURES[0].file);
    await writeFile(mine, theirs);
    const seen = proxy.seen.length;
    const r = await (await open()).prepare();
    expect(r.ok ? 'prepared' : `${r.error.kind}: ${r.error.message}`).toBe(
      `cache: ${mine} exists and is not a file cached by maou-bench (its SHA-256 recorded in <name>.sha256 beside it); maou-bench never replaces a file it did not write: move it away or name another path (it is where --input-local-cache-dir ${cache} keeps a page)`,
    );
    expect(proxy.seen.slice(seen).filter((x) => /\/tables\/[^/?]+\/data/.test(x))).toEqual([]);
    expect((await readFile(mine)).equals(theirs)).toBe(true);
    expect(await readdir(cache)).toEqual([basename(page.path)]);
  });

  it('given a partitioning date key, when prepared, then one shard per date is read with the date as a query parameter', async () => {
    const source = await open(spec({ partitioningKeyDate: 'day', batchSize: 2 }));
    const shards = await source.shards();
    expect(shards.map((s) => [s.id, s.rows])).toEqual([
      ['day=2026-01-01', 8],
      ['day=2026-01-02', 8],
      ['day=2026-01-03', 7],
    ]);
    expectRows(
      await source.read(shards[1]),
      ROWS.filter((r) => r.day === '2026-01-02'),
    );
    expect(bq.queries[0].sql).toBe(
      "SELECT `day` AS partition_value, COUNT(*) AS cnt FROM `test-project.maou_ds.stage1_rows` WHERE `day` BETWEEN DATE('1970-01-01') AND DATE('2100-01-01') GROUP BY `day` ORDER BY partition_value",
    );
    expect(bq.queries.slice(1)).toEqual(
      ['2026-01-01', '2026-01-02', '2026-01-03'].map((d) => ({
        sql: 'SELECT * FROM `test-project.maou_ds.stage1_rows` WHERE `day` = @value',
        params: { value: d },
      })),
    );
  });

  it('given a clustering key whose values hold SQL, when prepared, then values only travel as parameters', async () => {
    const shards = await (await open(spec({ clusteringKey: 'grp' }))).shards();
    expect(shards.map((s) => s.rows)).toEqual([9, 14]);
    expect(bq.queries.every((q) => !q.sql.includes('DROP'))).toBe(true);
    expect(bq.queries.map((q) => q.params.value)).toContain('o\'hara"; DROP TABLE x; --');
  });

  it('given identifiers outside the allow-list, when created, then the error names each flag and nothing is sent', async () => {
    const seen = proxy.seen.length;
    const r = await createBigQueryDataSource(
      spec({ datasetId: 'ds`; DROP', clusteringKey: 'a b' }),
      1,
      { logger, clock: new SystemClockAdapter() },
      { sampleRatio: null },
    );
    expect(r.ok ? '' : r.error.message).toBe(
      '--input-dataset-id: "ds`; DROP" is not a valid dataset id (letters, digits, underscores)\n--input-clustering-key: "a b" is not a valid column name (a letter or underscore, then letters, digits, underscores)',
    );
    expect(proxy.seen.length).toBe(seen);
  });

  it('given a byte budget of about two pages, when every shard is read, then the cache never holds more than the budget plus one page', async () => {
    const { onePage, source } = await twoPageBudget();
    const shards = await source.shards();
    // the budget is the pages' bytes; each page's SHA-256 record (65 bytes) beside it is not counted
    const pages = async (): Promise<string[]> => (await readdir(cache)).filter((f) => f.endsWith('.feather'));
    const onDisk = async (): Promise<number> =>
      (await Promise.all((await pages()).map(async (f) => (await stat(join(cache, f))).size))).reduce(
        (a, b) => a + b,
        0,
      );
    expect(await onDisk()).toBeLessThanOrEqual(onePage * 2 + 64);
    for (const [i, s] of shards.entries()) {
      expectRows(await source.read(s), ROWS.slice(i * 5, i * 5 + 5));
      expect(await onDisk()).toBeLessThanOrEqual(onePage * 3 + 64);
    }
    expectRows(await source.read(shards[0]), ROWS.slice(0, 5));
  });

  it('given a byte budget of about two pages, when loader workers read every page, then evicted pages are fetched again for them', async () => {
    const { source } = await twoPageBudget();
    const shards = await source.shards();
    expect((await readdir(cache)).filter((f) => f.endsWith('.feather')).length).toBeLessThan(shards.length);
    for (const streaming of [true, false]) {
      const loader = await DataLoaderAdapter.create(source, {
        batchSize: 2,
        workers: 2,
        prefetchFactor: 2,
        pinMemory: false,
        persistentWorkers: true,
        streaming,
        shuffle: true,
        testRatio: 0.2,
        cacheMode: 'file',
        devicePrefetch: 0,
        seed: 5,
      });
      try {
        let samples = 0;
        for await (const b of loader.iterate('train', 0)) samples += b.size;
        expect(samples).toBe(loader.samplesPerEpoch.train);
      } finally {
        await loader.close();
      }
    }
  }, 60_000);

  it('given 503, 429, a connection cut and a silent server, when prepared, then retries succeed; given a lasting 500, then the error names table and shard', async () => {
    proxy.rules.push({
      match: (m, u) => m === 'GET' && /\/tables\/stage1_rows(\?|$)/.test(u),
      times: 1,
      fault: { status: 503 },
    });
    proxy.rules.push({ match: (_m, u) => u.includes('/data?'), times: 1, fault: { status: 429 } });
    proxy.rules.push({ match: (_m, u) => u.includes('/data?'), times: 1, fault: { cutAfterBytes: 200 } });
    proxy.rules.push({ match: (_m, u) => u.includes('/data?'), times: 1, fault: { stall: true } });
    const source = await open();
    expect((await source.shards()).length).toBe(5);
    expect(source.ioStats()?.retries).toBe(4);
    await rm(cache, { recursive: true, force: true });
    proxy.rules.push({
      match: (_m, u) => u.includes('/data?') && u.includes('startIndex=10'),
      times: 100,
      fault: { status: 500 },
    });
    const failing = await open();
    const r = await failing.prepare();
    expect(r.ok ? '' : r.error.message).toMatch(
      /^BigQuery table maou_ds\.stage1_rows, shard rows10-15: failed after 5 tries: HTTP 500/,
    );
    // the failing run stopped after two pages (rows0-5, rows5-10) and says so
    expect(progress.tasks.map((t) => [t.done, t.outcome])).toEqual([
      [5, 'done'],
      [2, 'failed'],
    ]);
  });

  it("given a page refused with BigQuery's rate-limit reason (HTTP 403), then BigQuery's classifier retries it; a plain 403 fails at once", async () => {
    const refusal = (reason: string) => ({
      type: 'application/json',
      text: JSON.stringify({ error: { code: 403, message: 'injected', errors: [{ reason, message: 'injected' }] } }),
    });
    const page = (_m: string, u: string): boolean => u.includes('/data?');
    proxy.rules.push({ match: page, times: 1, fault: { status: 403, body: refusal('rateLimitExceeded') } });
    const source = await open();
    expect((await source.shards()).length).toBe(5);
    expect(source.ioStats()?.retries).toBe(1);
    await rm(cache, { recursive: true, force: true });
    proxy.rules.push({ match: page, times: 100, fault: { status: 403, body: refusal('accessDenied') } });
    const failing = await open();
    const r = await failing.prepare();
    expect(r.ok ? '' : r.error.message).toMatch(/^BigQuery table maou_ds\.stage1_rows: HTTP 403: injected/);
    expect(failing.ioStats()?.retries).toBe(0);
  });

  it('given a server slow on every call but within the call deadline, when a page takes 8 calls, then it is read with no retry', async () => {
    // 23 rows in one page, 3 per server answer: 8 tabledata.list calls of 250 ms each, 2 s in all against 1 s per call
    proxy.rules.push({ match: (_m, u) => u.includes('/data?'), times: 100, fault: { delayMs: 250 } });
    const before = proxy.injected.length;
    const source = await open(spec({ batchSize: 23 }), null, 1_000);
    const shards = await source.shards();
    expect(shards.map((s) => s.rows)).toEqual([23]);
    expectRows(await source.read(shards[0]), ROWS);
    expect(proxy.injected.slice(before)).toEqual(Array.from({ length: 8 }, () => ({ delayMs: 250 })));
    expect(source.ioStats()).toMatchObject({ objects: 1, retries: 0 });
  });

  it('given a sample ratio, when prepared, then a seeded subset of pages is served', async () => {
    const a = (await (await open(spec(), 0.4)).shards()).map((s) => s.id);
    expect(a).toHaveLength(2);
    expect((await (await open(spec(), 0.4)).shards()).map((s) => s.id)).toEqual(a);
  });
});
