import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { rm } from 'node:fs/promises';
import { SystemClockAdapter } from '../../clock/system-clock.adapter';
import { MemoryLogger } from '@maou/bench-use-cases/testing';
import { createBigQueryDataSource } from '../bigquery/bigquery.source';
import { gcsSource } from '../gcs/gcs.source';
import { s3Source } from '../s3/s3.source';
import { ObjectStoreDataSourceAdapter } from '../object-store/object-store-data-source.adapter';
import type { ObjectStore } from '../object-store/object-store';
import { readStageFile } from '../local/read-stage-file';
import { objectOptions, S3RVER_CREDENTIALS, tempDir, testDeps } from '@maou/bench-testkit/sources';

// A server that accepts every connection and never answers: each client's own timeouts (30 s a try for S3/GCS,
// 5 min a call for BigQuery, five tries) would make the run wait minutes; the request's budget ends it.
const silentServer = async (): Promise<{ url: string; accepted: () => number; close: () => Promise<void> }> => {
  const sockets: Socket[] = [];
  const server: Server = createServer((s) => {
    sockets.push(s);
    s.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    accepted: () => sockets.length,
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
};

const BUDGET_MS = 1_500;
// The budget, and room for a loaded machine to start the client and notice the timer.
const WITHIN_MS = BUDGET_MS + 3_000;

describe('a cloud endpoint that accepts connections and never answers', () => {
  let server: Awaited<ReturnType<typeof silentServer>>;
  let cache: string;
  beforeEach(async () => {
    server = await silentServer();
    cache = await tempDir('silent');
  });
  afterEach(async () => {
    await server.close();
    await rm(cache, { recursive: true, force: true });
  });

  const objectSource = (store: ObjectStore) =>
    new ObjectStoreDataSourceAdapter(
      3,
      store,
      // the idle limit of a real run (30 s a try): the request's budget must end the wait, not the tries
      objectOptions(cache, { idleTimeoutMs: 30_000, requestTimeoutMs: BUDGET_MS, endpoint: server.url }),
      testDeps(readStageFile),
    );

  it.each([
    [
      'S3',
      async () =>
        s3Source.store(
          { bucket: 'bucket', endpoint: server.url },
          { credentials: S3RVER_CREDENTIALS, region: 'us-east-1' },
        ),
      /^listing s3:\/\/bucket\/runs\/stage1\/: no answer from http:\/\/127\.0\.0\.1:\d+ in 1\.5 s \(1 try; the limit is --input-request-timeout, default 60 s\)/,
    ],
    [
      'GCS',
      async () => gcsSource.store({ bucket: 'bucket', endpoint: server.url }, { projectId: 'test-project' }),
      /^listing gs:\/\/bucket\/runs\/stage1\/: no answer from http:\/\/127\.0\.0\.1:\d+ in 1\.5 s \(1 try; the limit is --input-request-timeout/,
    ],
  ])(
    'given %s, then the listing fails within the budget, naming the endpoint, the wait and the flag',
    async (_, make, message) => {
      const store = await make();
      if (!store.ok) throw new Error(store.error.message);
      const started = Date.now();
      const r = await objectSource(store.value).prepare();
      const waited = Date.now() - started;
      expect(r.ok ? '' : r.error.message).toMatch(message);
      expect(server.accepted()).toBeGreaterThan(0);
      expect(waited).toBeGreaterThanOrEqual(BUDGET_MS - 50);
      expect(waited).toBeLessThan(WITHIN_MS);
    },
  );

  it('given BigQuery, then planning fails within the budget, naming the endpoint, the wait and the flag', async () => {
    // As in the BigQuery spec: teeny-request's node-fetch import cannot run in Jest's VM; its node:http path can.
    (globalThis as Record<string, unknown>).Bun = {};
    // offline credentials: the client asks this object for headers and never reaches Google
    const authClient = { getRequestHeaders: async () => new Headers({ authorization: 'Bearer offline-test-token' }) };
    const source = await createBigQueryDataSource(
      {
        kind: 'bigquery',
        label: 'BigQuery',
        sampled: true,
        streamable: false,
        datasetId: 'ds',
        tableName: 'rows',
        batchSize: 5,
        maxCachedBytes: 2 ** 20,
        seed: 1,
        localCacheDir: cache,
        apiEndpoint: server.url,
        projectId: 'test-project',
        requestTimeoutMs: BUDGET_MS,
      },
      3,
      { logger: new MemoryLogger(), clock: new SystemClockAdapter() },
      {
        sampleRatio: null,
        client: { clientOptions: { authClient } },
        retryHooks: { sleep: () => Promise.resolve(), random: () => 0.5 },
      },
    );
    if (!source.ok) throw new Error(source.error.message);
    const started = Date.now();
    const r = await source.value.prepare().finally(() => delete (globalThis as Record<string, unknown>).Bun);
    const waited = Date.now() - started;
    expect(r.ok ? '' : r.error.message).toMatch(
      /^BigQuery table ds\.rows: planning: no answer from http:\/\/127\.0\.0\.1:\d+ in 1\.5 s \(1 try; the limit is --input-request-timeout, default 60 s\)/,
    );
    expect(server.accepted()).toBeGreaterThan(0);
    expect(waited).toBeLessThan(WITHIN_MS);
  });
});
