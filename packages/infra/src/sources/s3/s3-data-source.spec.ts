import { spawn, spawnSync } from 'node:child_process';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { sweepStaleParts } from '../object-store/stale-parts';
import { dirname, join, relative } from 'node:path';
import type { AddressInfo } from 'node:net';
import { s3Source } from './s3.source';
import { ObjectStoreDataSourceAdapter } from '../object-store/object-store-data-source.adapter';
import type { ObjectStore } from '../object-store/object-store';
import {
  startFaultProxy,
  type FaultProxy,
  startS3rver,
  S3RVER_CREDENTIALS,
  type S3rverHarness,
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
import { RecordingProgress } from '@maou/bench-use-cases/testing';

const BUCKET = 'maou-data';
/** The temporary name a download or bundle of `file` by process `pid` on this host writes first (stale-parts.ts). */
const ownedPart = (file: string, pid: number): string =>
  `${file}.${hostname().replace(/[^A-Za-z0-9-]/g, '_')}~${pid}.0a1b2c.part`;

describe('S3 object source against s3rver', () => {
  let s3: S3rverHarness;
  let proxy: FaultProxy;
  let cache: string;

  const store = async (endpoint = proxy.url): Promise<ObjectStore> => {
    const r = await s3Source.store(
      { bucket: BUCKET, endpoint },
      { credentials: S3RVER_CREDENTIALS, region: 'us-east-1' },
    );
    if (!r.ok) throw new Error(r.error.message);
    return r.value;
  };

  beforeAll(async () => {
    s3 = await startS3rver(BUCKET);
    for (const [i, f] of FIXTURES.entries()) await s3.put(`runs/stage1/part${i}.feather`, await fixtureBytes(f.file));
    await s3.put('runs/stage1/notes.txt', Buffer.from('not data'));
    await s3.put('runs/other/part9.feather', await fixtureBytes(FIXTURES[0].file));
    for (let i = 0; i < 20; i += 1)
      await s3.put(`many/stage1/obj${String(i).padStart(2, '0')}.feather`, await fixtureBytes(FIXTURES[i % 3].file));
    proxy = await startFaultProxy(s3.address as AddressInfo);
  });
  afterAll(async () => {
    await proxy.close();
    await s3.close();
  });
  beforeEach(async () => {
    cache = await tempDir('s3');
    proxy.rules.length = 0;
  });
  afterEach(() => rm(cache, { recursive: true, force: true }));

  it('given objects under prefix/dataName, when prepared, then only .feather objects there are downloaded byte-identical', async () => {
    const source = new ObjectStoreDataSourceAdapter(1, await store(), objectOptions(cache), testDeps(stageReader));
    const shards = await source.shards();
    expect(shards.map((s) => s.rows)).toEqual([40, 60, 50]);
    expect(await listTree(cache)).toEqual(WHOLE_CACHE);
    for (const [i, f] of FIXTURES.entries()) {
      expect((await readFile(join(cache, 'stage1', `part${i}.feather`))).equals(await fixtureBytes(f.file))).toBe(true);
    }
    for (const [i, shard] of shards.entries()) {
      const cols = await source.read(shard);
      const sum = (a: Uint8Array): number => a.reduce((x, y) => x + y, 0);
      expect([cols.rows, sum(cols.boardIdPositions), sum(cols.piecesInHand)]).toEqual([
        FIXTURES[i].rows,
        FIXTURES[i].boardSum,
        FIXTURES[i].handSum,
      ]);
    }
    const io = source.ioStats();
    expect(io).toMatchObject({ source: 's3', objects: 3, retries: 0, cacheHits: 0 });
    expect(io.bytes).toBe(shards.reduce((n, s) => n + s.bytes, 0));
    expect(io.timeToFirstByteMs).toBeGreaterThanOrEqual(0);
    expect(io.megabytesPerSecond).toBeGreaterThan(0);
  });

  it('given a filled cache, when a second run prepares, then every object is a cache hit and nothing is fetched', async () => {
    await new ObjectStoreDataSourceAdapter(1, await store(), objectOptions(cache), testDeps(stageReader)).shards();
    const before = proxy.seen.filter((s) => s.startsWith('GET') && !s.includes('list-type')).length;
    const second = new ObjectStoreDataSourceAdapter(1, await store(), objectOptions(cache), testDeps(stageReader));
    expect((await second.shards()).length).toBe(3);
    expect(second.ioStats()).toMatchObject({ objects: 0, bytes: 0, cacheHits: 3 });
    expect(proxy.seen.filter((s) => s.startsWith('GET') && !s.includes('list-type')).length).toBe(before);
  });

  // A copy damaged in place keeps its size; before, it was a cache hit for ever and every run failed reading it.
  it('given a cached object changed in place at the same size, then it is fetched again with a warning naming it', async () => {
    await new ObjectStoreDataSourceAdapter(1, await store(), objectOptions(cache), testDeps(stageReader)).shards();
    const copy = join(cache, 'stage1', 'part1.feather');
    const good = await readFile(copy);
    const bad = Buffer.from(good);
    bad.fill(0, 100, 300);
    await writeFile(copy, bad);
    const deps = testDeps(stageReader);
    const again = new ObjectStoreDataSourceAdapter(1, await store(), objectOptions(cache), deps);
    expect((await again.shards()).length).toBe(3);
    expect(again.ioStats()).toMatchObject({ objects: 1, cacheHits: 2 });
    expect((await readFile(copy)).equals(good)).toBe(true);
    expect(deps.logger.lines.filter((l) => l.msg.includes('cached copy')).map((l) => [l.level, l.msg])).toEqual([
      [
        'warn',

        `the cached copy ${copy} of s3://maou-data/runs/stage1/part1.feather differs from what was downloaded (its SHA-256); fetching it again`,
      ],
    ]);
  });

  // The write rule in the cache: a user who names their own data folder as the cache keeps their files. Before, a
  // file of another size at a copy's name was replaced by the download, and one at a bundle's name by the bundle.
  describe('a file the product did not write where a copy, its record or a bundle would go', () => {
    const objectGets = (): number => proxy.seen.filter((s) => s.startsWith('GET') && !s.includes('list-type')).length;
    const refused = (path: string, what: string, where: string): string =>
      `cache: ${path} exists and is not ${what}; maou-bench never replaces a file it did not write: move it away or name another path (it is where --input-local-cache-dir ${cache} keeps ${where})`;
    const COPY = 'a file cached by maou-bench (its SHA-256 recorded in <name>.sha256 beside it)';

    const keptAndRefused = async (rel: string, bytes: Buffer, message: (path: string) => string, bundling = false) => {
      const mine = join(cache, rel);
      await mkdir(dirname(mine), { recursive: true });
      await writeFile(mine, bytes);
      const gets = objectGets();
      const opts = objectOptions(cache, bundling ? { enableBundling: true, bundleSizeGb: 30_000 / 2 ** 30 } : {});
      const r = await new ObjectStoreDataSourceAdapter(1, await store(), opts, testDeps(stageReader)).prepare();
      expect(r.ok ? 'prepared' : `${r.error.kind}: ${r.error.message}`).toBe(message(mine));
      expect(objectGets()).toBe(gets);
      expect((await readFile(mine)).equals(bytes)).toBe(true);
      expect(await listTree(cache)).toEqual([rel]);
    };

    it("given the user's own Arrow file at a copy's name, then the run is refused naming it and the flag before any download, the file byte-identical", async () => {
      const theirs = await fixtureBytes(FIXTURES[2].file);
      await keptAndRefused(join('stage1', 'part1.feather'), theirs, (mine) =>
        refused(mine, COPY, 's3://maou-data/runs/stage1/part1.feather'),
      );
    });

    it("given the user's own text at a copy's record name, then the run is refused naming it, the file byte-identical", async () => {
      await keptAndRefused(join('stage1', 'part0.feather.sha256'), Buffer.from('my checksums\n'), (mine) =>
        refused(
          mine,
          'a SHA-256 record written by maou-bench (64 hex digits)',
          's3://maou-data/runs/stage1/part0.feather',
        ),
      );
    });

    it("given the user's own file at a bundle's name, then the run is refused naming it before any download, the file byte-identical", async () => {
      // where the bundle goes, learned from a run into another cache
      const other = await tempDir('s3-bundle-name');
      const opts = objectOptions(other, { enableBundling: true, bundleSizeGb: 30_000 / 2 ** 30 });
      const [bundle] = await new ObjectStoreDataSourceAdapter(1, await store(), opts, testDeps(stageReader)).shards();
      await rm(other, { recursive: true, force: true });
      const theirs = await fixtureBytes(FIXTURES[0].file);
      await keptAndRefused(
        relative(other, bundle.path),
        theirs,
        (mine) => refused(mine, COPY, 'a bundle of --input-enable-bundling'),
        true,
      );
    });

    it('given the user moves their file away, then the same run downloads into the cache', async () => {
      const mine = join(cache, 'stage1', 'part1.feather');
      await mkdir(dirname(mine), { recursive: true });
      await writeFile(mine, 'notes');
      const opts = objectOptions(cache);
      expect((await new ObjectStoreDataSourceAdapter(1, await store(), opts, testDeps(stageReader)).prepare()).ok).toBe(
        false,
      );
      await rm(mine);
      const shards = await new ObjectStoreDataSourceAdapter(1, await store(), opts, testDeps(stageReader)).shards();
      expect(shards.map((x) => x.rows)).toEqual([40, 60, 50]);
      expect(await listTree(cache)).toEqual(WHOLE_CACHE);
    });
  });

  // A bundle whose data bytes changed in place keeps its layout and row count: before, it was reused, and its
  // changed rows read as data.
  it('given a bundle changed in place, then it is written again from the cached copies, not reused', async () => {
    const opts = objectOptions(cache, { enableBundling: true, bundleSizeGb: 30_000 / 2 ** 30 });
    const [bundle] = await new ObjectStoreDataSourceAdapter(1, await store(), opts, testDeps(stageReader)).shards();
    const good = await readFile(bundle.path);
    const bad = Buffer.from(good);
    // inside the first batch's body, past its metadata
    for (let i = 0; i < 16; i += 1) bad[2048 + i] ^= 0xff;
    await writeFile(bundle.path, bad);
    const again = new ObjectStoreDataSourceAdapter(1, await store(), opts, testDeps(stageReader));
    const shards = await again.shards();
    expect(again.ioStats()).toMatchObject({ objects: 0, cacheHits: 3 });
    expect((await readFile(bundle.path)).equals(good)).toBe(true);
    expect((await again.read(shards[0])).rows).toBe(100);
  });

  // A real full disk: a 64 KiB tmpfs (mounting needs root; skipped otherwise).
  (process.getuid?.() === 0 ? it : it.skip)(
    'given a cache directory on a full disk, then the error names the cache file, ENOSPC once, and the flag that moves the cache',
    async () => {
      spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', cache]);
      try {
        // every block taken: the first object's bytes find no room
        await writeFile(join(cache, 'filler'), Buffer.alloc(128 * 1024)).catch(() => undefined);
        const source = new ObjectStoreDataSourceAdapter(1, await store(), objectOptions(cache), testDeps(stageReader));
        const r = await source.prepare();
        if (r.ok) throw new Error('prepared on a full disk');
        expect(r.error.message).toMatch(
          /^s3:\/\/maou-data\/runs\/stage1\/part\d\.feather: cannot write the cache file .*\/stage1\/part\d\.feather: no space left on the device \(ENOSPC\); free space on that filesystem or write to another \(--input-local-cache-dir puts the cache elsewhere\)$/,
        );
        expect(r.error.message.match(/ENOSPC/g)).toHaveLength(1);
        expect((await listTree(cache)).filter((f) => f !== 'filler')).toEqual([]);
      } finally {
        spawnSync('umount', [cache]);
      }
    },
  );

  it('given a sample ratio and seed, when prepared, then floor(n·ratio) objects are chosen, the same for the same seed', async () => {
    const pick = async (seed: number, dir: string): Promise<string[]> => {
      const s = new ObjectStoreDataSourceAdapter(
        1,
        await store(s3.endpoint),
        objectOptions(dir, { prefix: 'many', sampleRatio: 0.25, seed }),
        testDeps(stageReader),
      );
      return (await s.shards()).map((x) => x.id);
    };
    const a = await pick(7, cache);
    expect(a).toHaveLength(5);
    expect(await pick(7, join(cache, 'again'))).toEqual(a);
    expect(await pick(8, join(cache, 'other'))).not.toEqual(a);
  });

  it('given throttling, 5xx and a connection cut mid-body, when prepared, then it succeeds after retries with nothing partial left', async () => {
    const part1 = (m: string, u: string): boolean => m === 'GET' && u.includes('part1.feather');
    proxy.rules.push(
      { match: part1, times: 1, fault: { status: 503 } },
      { match: part1, times: 1, fault: { cutAfterBytes: 5000 } },
    );
    proxy.rules.push({ match: (m, u) => m === 'GET' && u.includes('part2.feather'), times: 1, fault: { status: 429 } });
    proxy.rules.push({ match: (m, u) => m === 'GET' && u.includes('list-type'), times: 1, fault: { status: 500 } });
    const source = new ObjectStoreDataSourceAdapter(1, await store(), objectOptions(cache), testDeps(stageReader));
    expect((await source.shards()).map((s) => s.rows)).toEqual([40, 60, 50]);
    expect(source.ioStats().retries).toBe(4);
    expect(await listTree(cache)).toEqual(WHOLE_CACHE);
    expect((await readFile(join(cache, 'stage1', 'part1.feather'))).equals(await fixtureBytes(FIXTURES[1].file))).toBe(
      true,
    );
  });

  it("given S3's own RequestTimeout (an HTTP 400 by that name), then S3's classifier retries it; another 400 fails at once", async () => {
    const part1 = (m: string, u: string): boolean => m === 'GET' && u.includes('part1.feather');
    const awsError = (code: string) => ({
      type: 'application/xml',
      text: `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>injected</Message></Error>`,
    });
    proxy.rules.push({ match: part1, times: 1, fault: { status: 400, body: awsError('RequestTimeout') } });
    const source = new ObjectStoreDataSourceAdapter(1, await store(), objectOptions(cache), testDeps(stageReader));
    expect((await source.shards()).map((s) => s.rows)).toEqual([40, 60, 50]);
    expect(source.ioStats().retries).toBe(1);
    await rm(cache, { recursive: true, force: true });
    proxy.rules.push({ match: part1, times: 100, fault: { status: 400, body: awsError('InvalidArgument') } });
    const failing = new ObjectStoreDataSourceAdapter(1, await store(), objectOptions(cache), testDeps(stageReader));
    const r = await failing.prepare();
    expect(r.ok ? '' : r.error.message).toMatch(
      /^s3:\/\/maou-data\/runs\/stage1\/part1\.feather: HTTP 400: InvalidArgument/,
    );
    expect(failing.ioStats().retries).toBe(0);
  });

  it('given a cut mid-body and then a filled cache, when prepared, then one bytes task reaches the listed object bytes without overshooting', async () => {
    proxy.rules.push({
      match: (m, u) => m === 'GET' && u.includes('part1.feather'),
      times: 1,
      fault: { cutAfterBytes: 5000 },
    });
    const total = (await Promise.all(FIXTURES.map(async (f) => (await fixtureBytes(f.file)).length))).reduce(
      (a, b) => a + b,
      0,
    );
    const progress = new RecordingProgress();
    await new ObjectStoreDataSourceAdapter(1, await store(), objectOptions(cache), {
      ...testDeps(stageReader),
      progress,
    }).shards();
    await new ObjectStoreDataSourceAdapter(1, await store(), objectOptions(cache), {
      ...testDeps(stageReader),
      progress,
    }).shards();
    expect(
      progress.tasks.map((t) => [t.start.label, t.start.unit, t.start.total, t.done, t.peak, t.outcome, t.late]),
    ).toEqual([
      ['download s3://maou-data/runs/stage1/', 'bytes', total, total, total, 'done', 0],
      ['download s3://maou-data/runs/stage1/', 'bytes', total, total, total, 'done', 0],
    ]);
    // the first run heard chunks as they arrived; the second counted three cache hits
    expect(progress.tasks[0].steps).toBeGreaterThan(3);
    expect(progress.tasks[1].steps).toBe(3);
  });

  it('given an object that keeps failing, when prepared, then a clear error names bucket and object and the cache holds no partial file', async () => {
    proxy.rules.push({
      match: (m, u) => m === 'GET' && u.includes('part1.feather'),
      times: 100,
      fault: { cutAfterBytes: 3000 },
    });
    const source = new ObjectStoreDataSourceAdapter(1, await store(), objectOptions(cache), testDeps(stageReader));
    const r = await source.prepare();
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.kind).toBe('transfer');
    expect(r.error.message).toMatch(/^s3:\/\/maou-data\/runs\/stage1\/part1\.feather: failed after 4 tries/);
    await expect(source.shards()).rejects.toThrow('s3://maou-data/runs/stage1/part1.feather');
    expect((await listTree(cache)).filter((f) => f.includes('part1') || f.endsWith('.part'))).toEqual([]);
  });

  it('given an object that keeps failing, when prepared with progress, then the task ends failed below its total', async () => {
    proxy.rules.push({
      match: (m, u) => m === 'GET' && u.includes('part1.feather'),
      times: 100,
      fault: { cutAfterBytes: 3000 },
    });
    const progress = new RecordingProgress();
    const r = await new ObjectStoreDataSourceAdapter(1, await store(), objectOptions(cache), {
      ...testDeps(stageReader),
      progress,
    }).prepare();
    expect(r.ok).toBe(false);
    const [task] = progress.tasks;
    expect(task.outcome).toBe('failed');
    expect(task.done).toBeLessThan(task.start.total ?? 0);
  });

  it('given a listing that gets no answer, when prepared, then it is retried after the idle timeout, and a listing that never answers fails naming it', async () => {
    const listing = (m: string, u: string) => m === 'GET' && u.includes('list-type');
    proxy.rules.push({ match: listing, times: 1, fault: { stall: true } });
    const seenBefore = proxy.seen.length;
    const once = await new ObjectStoreDataSourceAdapter(
      1,
      await store(),
      { ...objectOptions(cache), idleTimeoutMs: 300 },
      testDeps(stageReader),
    ).prepare();
    expect(once.ok).toBe(true);
    expect(proxy.seen.slice(seenBefore).filter((r) => listing(r.split(' ')[0]!, r)).length).toBe(2);
    proxy.rules.push({ match: listing, times: 100, fault: { stall: true } });
    const never = await new ObjectStoreDataSourceAdapter(
      1,
      await store(),
      { ...objectOptions(cache), idleTimeoutMs: 300 },
      testDeps(stageReader),
    ).prepare();
    expect(never.ok).toBe(false);
    if (!never.ok)
      expect(never.error.message).toMatch(/listing s3:\/\/maou-data\/runs\/stage1\/.*no answer within 300 ms/);
  }, 30_000);

  it('given an object GET that never answers, then the request fails once its budget is spent, not after every try, naming object, endpoint and flag', async () => {
    proxy.rules.push({
      match: (m, u) => m === 'GET' && u.includes('part1.feather'),
      times: 100,
      fault: { stall: true },
    });
    expect(await silentPart1Outcome(await store(), cache, proxy.url, stageReader)).toMatch(
      /^s3:\/\/maou-data\/runs\/stage1\/part1\.feather: no answer from http:\/\/127\.0\.0\.1:\d+ in 1 s \(1 try; the limit is --input-request-timeout, default 60 s\) \| within 10 s \| nothing of part1 cached$/,
    );
  }, 30_000);

  it('given an object truncated on the server (its listed size agrees), then it is never cached and the error names the object (#19)', async () => {
    const whole = await fixtureBytes(FIXTURES[1].file);
    await s3.put('cut/stage1/part0.feather', await fixtureBytes(FIXTURES[0].file));
    await s3.put('cut/stage1/part1.feather', whole.subarray(0, Math.floor(whole.length * 0.6)));
    const source = new ObjectStoreDataSourceAdapter(
      1,
      await store(),
      objectOptions(cache, { prefix: 'cut' }),
      testDeps(stageReader),
    );
    const r = await source.prepare();
    expect(r.ok ? '' : r.error.message).toMatch(
      /^s3:\/\/maou-data\/cut\/stage1\/part1\.feather: IncompleteObjectError: the object's bytes are not a complete data file \(Arrow IPC File without trailing ARROW1 magic \(truncated\?\)\); it was not cached$/,
    );
    expect(await listTree(cache)).toEqual(['stage1/part0.feather', 'stage1/part0.feather.sha256']);
  });

  it('given two runs sharing one cache at once, then both get every object whole and no temporary is left (#19)', async () => {
    proxy.rules.push({
      match: (m, u) => m === 'GET' && u.includes('part1.feather'),
      times: 1,
      fault: { cutAfterBytes: 4000 },
    });
    const run = async (): Promise<number[]> =>
      (
        await new ObjectStoreDataSourceAdapter(1, await store(), objectOptions(cache), testDeps(stageReader)).shards()
      ).map((x) => x.rows);
    expect(await Promise.all([run(), run(), run()])).toEqual([
      [40, 60, 50],
      [40, 60, 50],
      [40, 60, 50],
    ]);
    expect(await listTree(cache)).toEqual(WHOLE_CACHE);
    for (const [i, f] of FIXTURES.entries())
      expect((await readFile(join(cache, 'stage1', `part${i}.feather`))).equals(await fixtureBytes(f.file))).toBe(true);
  });

  it('given an empty prefix, when prepared, then the error names the location and the flags', async () => {
    const source = new ObjectStoreDataSourceAdapter(
      1,
      await store(),
      objectOptions(cache, { dataName: 'nothing' }),
      testDeps(stageReader),
    );
    const r = await source.prepare();
    expect(r.ok ? '' : r.error.message).toBe(
      'no .feather objects under s3://maou-data/runs/nothing/ (check --input-bucket-name, --input-prefix, --input-data-name)',
    );
  });

  it('given bundling with a small bundle size, when prepared twice, then rows are kept in fewer files and the bundle is reused', async () => {
    const opts = objectOptions(cache, { enableBundling: true, bundleSizeGb: 30_000 / 2 ** 30 });
    const first = new ObjectStoreDataSourceAdapter(1, await store(), opts, testDeps(stageReader));
    const shards = await first.shards();
    expect(shards.map((s) => s.rows)).toEqual([100, 50]);
    expect(shards[0].path).toMatch(/stage1\.bundles\/bundle0_2files_[0-9a-f]{12}\.feather$/);
    const cols = await first.read(shards[0]);
    expect(cols.rows).toBe(100);
    expect(cols.piecesInHand.reduce((a, b) => a + b, 0)).toBe(FIXTURES[0].handSum + FIXTURES[1].handSum);
    const second = new ObjectStoreDataSourceAdapter(1, await store(), opts, testDeps(stageReader));
    expect((await second.shards()).map((s) => s.path)).toEqual(shards.map((s) => s.path));
    expect(second.ioStats().cacheHits).toBe(4);
  });

  it('given a bundle temporary a killed run left, when prepared, then it is removed and the bundle is written whole', async () => {
    const { mkdir, writeFile } = await import('node:fs/promises');
    const bundles = join(cache, 'stage1.bundles');
    await mkdir(bundles, { recursive: true });
    const gone = spawnSync(process.execPath, ['-e', '']).pid!;
    const left = ownedPart('bundle0_2files_0123456789ab.feather', gone);
    await writeFile(join(bundles, left), 'half a bundle');
    const opts = objectOptions(cache, { enableBundling: true, bundleSizeGb: 30_000 / 2 ** 30 });
    const shards = await new ObjectStoreDataSourceAdapter(1, await store(), opts, testDeps(stageReader)).shards();
    expect(shards.map((s) => s.rows)).toEqual([100, 50]);
    expect((await listTree(bundles)).filter((f) => f.endsWith('.part'))).toEqual([]);
  });
});

describe('sweepStaleParts', () => {
  const names = (pid: number): string => ownedPart('a.feather', pid);

  // A `.part` file not named by a download is not ours, however old (a user's, in the folder named as the cache):
  // before, one older than an hour was deleted.
  it('given parts of a finished process, of a running one, and unnamed old and fresh ones, then only our leftovers go', async () => {
    const { mkdir, writeFile, utimes } = await import('node:fs/promises');
    const dir = await tempDir('parts');
    await mkdir(join(dir, 'stage1'), { recursive: true });
    const gone = spawnSync(process.execPath, ['-e', '']).pid!;
    const running = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    try {
      await writeFile(join(dir, 'stage1', names(gone)), 'killed run');
      await writeFile(join(dir, 'stage1', names(running.pid!)), 'run in progress');
      await writeFile(join(dir, 'stage1', 'a.feather.1.part'), 'x');
      await writeFile(join(dir, 'stage1', 'b.feather.2.part'), 'y');
      await writeFile(join(dir, 'stage1', 'c.feather'), 'z');
      const old = new Date(Date.now() - 2 * 3_600_000);
      await utimes(join(dir, 'stage1', 'a.feather.1.part'), old, old);
      expect(await sweepStaleParts(dir, Date.now())).toBe(1);
      expect(await listTree(dir)).toEqual([
        'stage1/a.feather.1.part',
        `stage1/${names(running.pid!)}`,
        'stage1/b.feather.2.part',
        'stage1/c.feather',
      ]);
    } finally {
      running.kill();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
