import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gcsSource } from './gcs.source';
import { ObjectStoreDataSourceAdapter } from '../object-store/object-store-data-source.adapter';
import type { ObjectStore } from '../object-store/object-store';
import {
  startFakeGcs,
  type FakeGcsServer,
  startFaultProxy,
  type FaultProxy,
  FIXTURES,
  fixtureBytes,
  listTree,
  WHOLE_CACHE,
  objectOptions,
  silentPart1Outcome,
  tempDir,
  testDeps,
} from '@maou/bench-testkit/sources';
import { readStageFile as stageReader } from '../local/read-stage-file';

const BUCKET = 'maou-gcs';
const media =
  (name: string) =>
  (m: string, u: string): boolean =>
    m === 'GET' && u.includes(name) && u.includes('alt=media');

describe('GCS object source with @google-cloud/storage against a loopback GCS JSON API', () => {
  let gcs: FakeGcsServer;
  let proxy: FaultProxy;
  let cache: string;

  const store = async (): Promise<ObjectStore> => {
    const r = await gcsSource.store({ bucket: BUCKET, endpoint: proxy.url }, { projectId: 'test-project' });
    if (!r.ok) throw new Error(r.error.message);
    return r.value;
  };

  beforeAll(async () => {
    gcs = await startFakeGcs(BUCKET);
    for (const [i, f] of FIXTURES.entries()) gcs.put(`runs/stage1/part${i}.feather`, await fixtureBytes(f.file));
    gcs.put('runs/stage1/readme.md', Buffer.from('x'));
    gcs.put('runs/stage10/part0.feather', await fixtureBytes(FIXTURES[0].file));
    proxy = await startFaultProxy(gcs.address);
  });
  afterAll(async () => {
    await proxy.close();
    await gcs.close();
  });
  beforeEach(async () => {
    cache = await tempDir('gcs');
    proxy.rules.length = 0;
  });
  afterEach(() => rm(cache, { recursive: true, force: true }));

  it('given objects listed over several pages, when prepared twice, then all are fetched once and then served from cache', async () => {
    const first = new ObjectStoreDataSourceAdapter(1, await store(), objectOptions(cache), testDeps(stageReader));
    expect((await first.shards()).map((s) => s.rows)).toEqual([40, 60, 50]);
    expect(proxy.seen.filter((s) => s.includes('pageToken')).length).toBeGreaterThan(0);
    expect(first.ioStats()).toMatchObject({ source: 'gcs', objects: 3, retries: 0, cacheHits: 0 });
    const cols = await first.read((await first.shards())[2]);
    expect('reachableSquares' in cols).toBe(true);
    expect(cols.stage === 1 && cols.reachableSquares.reduce((a, b) => a + b, 0)).toBe(FIXTURES[2].reachSum);
    const second = new ObjectStoreDataSourceAdapter(1, await store(), objectOptions(cache), testDeps(stageReader));
    await second.shards();
    expect(second.ioStats()).toMatchObject({ objects: 0, cacheHits: 3 });
  });

  // Before, the download replaced a file of another size at an object's name (the cache named as the user's folder).
  it("given the user's own file at a copy's name, then the run is refused naming it and the flag before any download, the file byte-identical; our damaged copy is fetched again", async () => {
    const mine = join(cache, 'stage1', 'part2.feather');
    await mkdir(join(cache, 'stage1'), { recursive: true });
    const theirs = await fixtureBytes(FIXTURES[0].file);
    await writeFile(mine, theirs);
    const seen = proxy.seen.length;
    const r = await new ObjectStoreDataSourceAdapter(
      1,
      await store(),
      objectOptions(cache),
      testDeps(stageReader),
    ).prepare();
    expect(r.ok ? 'prepared' : r.error.message).toBe(
      `${mine} exists and is not a file cached by maou-bench (its SHA-256 recorded in <name>.sha256 beside it); maou-bench never replaces a file it did not write: move it away or name another path (it is where --input-local-cache-dir ${cache} keeps gs://${BUCKET}/runs/stage1/part2.feather)`,
    );
    expect(proxy.seen.slice(seen).filter((x) => x.includes('alt=media'))).toEqual([]);
    expect((await readFile(mine)).equals(theirs)).toBe(true);
    await rm(mine);
    await new ObjectStoreDataSourceAdapter(1, await store(), objectOptions(cache), testDeps(stageReader)).shards();
    const good = await readFile(mine);
    await writeFile(mine, Buffer.from(good).fill(7, 500, 600));
    const again = new ObjectStoreDataSourceAdapter(1, await store(), objectOptions(cache), testDeps(stageReader));
    await again.shards();
    expect(again.ioStats()).toMatchObject({ objects: 1, cacheHits: 2 });
    expect((await readFile(mine)).equals(good)).toBe(true);
  });

  it('given 429, 500 and a connection cut mid-download, when prepared, then retries succeed and files are whole', async () => {
    proxy.rules.push({ match: media('part0'), times: 1, fault: { status: 429 } });
    proxy.rules.push({ match: media('part0'), times: 1, fault: { status: 500 } });
    // The storage client never reports this cut; the idle timeout notices the silence.
    proxy.rules.push({ match: media('part2'), times: 1, fault: { cutAfterBytes: 4096 } });
    const source = new ObjectStoreDataSourceAdapter(
      1,
      await store(),
      objectOptions(cache, { maxWorkers: 1 }),
      testDeps(stageReader),
    );
    await source.shards();
    expect(source.ioStats().retries).toBe(3);
    expect(await listTree(cache)).toEqual(WHOLE_CACHE);
    expect((await readFile(join(cache, 'stage1', 'part2.feather'))).equals(await fixtureBytes(FIXTURES[2].file))).toBe(
      true,
    );
  });

  it("given a listing refused with GCS's rate-limit reason (HTTP 403), then GCS's classifier retries it; a plain 403 fails at once", async () => {
    const listing = (m: string, u: string): boolean => m === 'GET' && /\/o\?/.test(u);
    const refusal = (reason: string) => ({
      type: 'application/json',
      text: JSON.stringify({ error: { code: 403, message: 'injected', errors: [{ reason, message: 'injected' }] } }),
    });
    proxy.rules.push({ match: listing, times: 1, fault: { status: 403, body: refusal('rateLimitExceeded') } });
    const source = new ObjectStoreDataSourceAdapter(1, await store(), objectOptions(cache), testDeps(stageReader));
    expect((await source.shards()).map((s) => s.rows)).toEqual([40, 60, 50]);
    expect(source.ioStats().retries).toBe(1);
    proxy.rules.push({ match: listing, times: 100, fault: { status: 403, body: refusal('forbidden') } });
    const failing = new ObjectStoreDataSourceAdapter(1, await store(), objectOptions(cache), testDeps(stageReader));
    const r = await failing.prepare();
    expect(r.ok ? '' : r.error.message).toMatch(/^listing gs:\/\/maou-gcs\/runs\/stage1\/: HTTP 403/);
    expect(failing.ioStats().retries).toBe(0);
  });

  it('given an object GET that never answers, then it fails once the request budget is spent, not after every try', async () => {
    proxy.rules.push({ match: media('part1'), times: 100, fault: { stall: true } });
    expect(await silentPart1Outcome(await store(), cache, proxy.url, stageReader)).toMatch(
      /^gs:\/\/maou-gcs\/runs\/stage1\/part1\.feather: no answer from http:\/\/127\.0\.0\.1:\d+ in 1 s \(1 try; the limit is --input-request-timeout, default 60 s\) \| within 10 s \| nothing of part1 cached$/,
    );
  }, 30_000);

  it('given throttling that never ends, when prepared, then the error names gs://bucket/object and no partial file remains', async () => {
    proxy.rules.push({ match: media('part1'), times: 100, fault: { status: 503 } });
    const logger = testDeps(stageReader).logger;
    const source = new ObjectStoreDataSourceAdapter(
      1,
      await store(),
      objectOptions(cache),
      testDeps(stageReader, logger),
    );
    const r = await source.prepare();
    expect(r.ok ? '' : r.error.message).toMatch(
      /^gs:\/\/maou-gcs\/runs\/stage1\/part1\.feather: failed after 4 tries: HTTP 503/,
    );
    expect((await listTree(cache)).filter((f) => f.includes('part1'))).toEqual([]);
    expect(logger.lines.filter((l) => l.msg === 'transient failure, retrying')).toHaveLength(3);
  });

  it('given a missing object (404), when prepared, then it fails at once without retrying', async () => {
    proxy.rules.push({ match: media('part1'), times: 100, fault: { status: 404 } });
    const source = new ObjectStoreDataSourceAdapter(1, await store(), objectOptions(cache), testDeps(stageReader));
    const r = await source.prepare();
    expect(r.ok ? '' : r.error.message).toMatch(/^gs:\/\/maou-gcs\/runs\/stage1\/part1\.feather: HTTP 404/);
    expect(source.ioStats().retries).toBe(0);
  });
});
