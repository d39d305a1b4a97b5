import { rm } from 'node:fs/promises';
import { mulberry32 } from '@maou/bench-domain';
import { MemoryLogger } from '@maou/bench-use-cases/testing';
import {
  SystemClockAdapter,
  createBigQueryDataSource,
  gcsSource,
  s3Source,
  type BigQuerySpec,
  type CloudSourceContext,
  type CloudSourceOptions,
  type ObjectStoreSpec,
} from '@maou/bench-infra';

type CampaignSpec = BigQuerySpec | (ObjectStoreSpec & { readonly kind: 's3' | 'gcs' });
import { startFakeBigQuery, type FakeBigQueryServer, type FakeField, type FakeRow } from './fake-bigquery-server';
import { startFakeGcs, type FakeGcsServer } from './fake-gcs-server';
import { startFaultProxy, type Fault, type FaultProxy, type FaultRule } from './fault-proxy';
import { startS3rver, S3RVER_CREDENTIALS, type S3rverHarness } from './s3rver-harness';
import { FIXTURES, fixtureBytes, listTree, tempDir } from './cloud-fixtures';

/** Which servers, how many runs, how long, from which seed. @internal */
export interface CampaignOptions {
  readonly runs: number;
  readonly seconds: number;
  readonly seed: number;
  readonly backends?: readonly Backend[];
  /** one line per run, for the long campaign's log */
  readonly onRun?: (line: string) => void;
}

type Backend = 's3' | 'gcs' | 'bigquery';

/** What a campaign found; `partialFilesLeft`, `uncleanFailures`, `hangs` and `wrongData` must all be 0. @internal */
export interface CampaignFigures {
  readonly seed: number;
  readonly runs: number;
  readonly faultsInjected: number;
  readonly faultsByKind: Readonly<Record<string, number>>;
  readonly retries: number;
  readonly successes: number;
  readonly cleanFailures: number;
  readonly uncleanFailures: readonly string[];
  readonly hangs: number;
  readonly wrongData: number;
  readonly partialFilesLeft: number;
  readonly elapsedMs: number;
}

const BQ_FIELDS: FakeField[] = [
  { name: 'boardIdPositions', type: 'INTEGER', mode: 'REPEATED' },
  { name: 'piecesInHand', type: 'BYTES' },
  { name: 'reachableSquares', type: 'INTEGER', mode: 'REPEATED' },
];
const BQ_ROWS: FakeRow[] = Array.from({ length: 17 }, (_, i) => ({
  boardIdPositions: Array.from({ length: 81 }, (_, k) => (i + k) % 29),
  piecesInHand: Buffer.from(Array.from({ length: 14 }, (_, k) => (i + k) % 3)),
  reachableSquares: Array.from({ length: 81 }, (_, k) => (i * k) % 2),
}));
const OBJECT_ROWS = FIXTURES.reduce((n, f) => n + f.rows, 0);
const RUN_DEADLINE_MS = 20_000;
// Offline credentials: the BigQuery client asks this object for headers and never reaches Google.
const authClient = { getRequestHeaders: async () => new Headers({ authorization: 'Bearer offline-test-token' }) };

interface Servers {
  s3: S3rverHarness;
  gcs: FakeGcsServer;
  bq: FakeBigQueryServer;
  proxies: Record<Backend, FaultProxy>;
}

const startServers = async (): Promise<Servers> => {
  const s3 = await startS3rver('campaign');
  const gcs = await startFakeGcs('campaign');
  for (const [i, f] of FIXTURES.entries()) {
    await s3.put(`runs/stage1/part${i}.feather`, await fixtureBytes(f.file));
    gcs.put(`runs/stage1/part${i}.feather`, await fixtureBytes(f.file));
  }
  const bq = await startFakeBigQuery({
    project: 'test-project',
    dataset: 'maou_ds',
    table: 'stage1_rows',
    fields: BQ_FIELDS,
    rows: BQ_ROWS,
    serverPageCap: 4,
  });
  const proxies = {
    s3: await startFaultProxy(s3.address),
    gcs: await startFaultProxy(gcs.address),
    bq: undefined as unknown as FaultProxy,
  };
  proxies.bq = await startFaultProxy(bq.address);
  return { s3, gcs, bq, proxies: { s3: proxies.s3, gcs: proxies.gcs, bigquery: proxies.bq } };
};

/** A random schedule: one to four rules, each a fault on some requests, one to five times (past the retry budget at times). */
const schedule = (rnd: () => number): FaultRule[] => {
  const faults: Fault[] = [
    { status: 500 },
    { status: 502 },
    { status: 503 },
    { status: 429 },
    { reset: true },
    { stall: true },
  ];
  const targets: ((m: string, u: string) => boolean)[] = [
    (m) => m === 'GET',
    (_m, u) => u.includes('part1') || u.includes('pageToken') || u.includes('/data'),
    (_m, u) => u.includes('list-type') || u.includes('/o?') || u.includes('queries'),
  ];
  return Array.from({ length: 1 + Math.floor(rnd() * 4) }, () => {
    const cut = rnd() < 0.3;
    const fault: Fault = cut
      ? { cutAfterBytes: 1 + Math.floor(rnd() * 6000) }
      : faults[Math.floor(rnd() * faults.length)]!;
    return { match: targets[Math.floor(rnd() * targets.length)]!, times: 1 + Math.floor(rnd() * 5), fault };
  });
};

const specFor = (backend: Backend, servers: Servers, cache: string, seed: number): CampaignSpec => {
  const endpoint = servers.proxies[backend].url;
  if (backend === 'bigquery') {
    return {
      kind: 'bigquery',
      label: 'BigQuery',
      sampled: true,
      streamable: false,
      datasetId: 'maou_ds',
      tableName: 'stage1_rows',
      batchSize: 5,
      maxCachedBytes: 2 ** 30,
      localCacheDir: cache,
      apiEndpoint: endpoint,
      projectId: 'test-project',
      seed,
    };
  }
  return {
    kind: backend,
    label: backend,
    sampled: true,
    streamable: false,
    bucket: 'campaign',
    prefix: 'runs',
    dataName: 'stage1',
    localCacheDir: cache,
    maxWorkers: 2,
    enableBundling: false,
    bundleSizeGb: 1,
    endpoint,
    seed,
  };
};

/** Each kind with its own client settings: offline credentials for s3rver and the fake BigQuery. */
const createCloudSource = (spec: CampaignSpec, context: CloudSourceContext, options: CloudSourceOptions<never>) =>
  spec.kind === 'bigquery'
    ? createBigQueryDataSource(spec, 1, context, {
        ...options,
        client: { clientOptions: { authClient }, callTimeoutMs: 400 },
      })
    : spec.kind === 's3'
      ? s3Source.create({ ...spec, kind: 's3' }, 1, context, {
          ...options,
          client: { credentials: S3RVER_CREDENTIALS, region: 'us-east-1' },
        })
      : gcsSource.create({ ...spec, kind: 'gcs' }, 1, context, options);

const kindOf = (f: Fault): string =>
  'status' in f
    ? `http ${f.status}`
    : 'cutAfterBytes' in f
      ? 'truncated body'
      : 'stall' in f
        ? 'stall'
        : 'delayMs' in f
          ? 'slow answer'
          : 'reset';

type Outcome = 'success' | 'clean' | 'hang' | 'wrong-data' | { unclean: string };

const oneRun = async (
  backend: Backend,
  servers: Servers,
  seed: number,
): Promise<{ outcome: Outcome; retries: number; partial: number; message: string }> => {
  const cache = await tempDir(`campaign-${backend}`);
  const r = await createCloudSource(
    specFor(backend, servers, cache, seed),
    { logger: new MemoryLogger(), clock: new SystemClockAdapter() },
    {
      sampleRatio: null,
      retry: { attempts: 4, baseDelayMs: 1, maxDelayMs: 4 },
      idleTimeoutMs: 300,
      retryHooks: { sleep: () => Promise.resolve(), random: () => 0.5 },
    },
  );
  if (!r.ok) throw new Error(r.error.message);
  const source = r.value;
  let outcome: Outcome;
  let message = '';
  let timer: NodeJS.Timeout | undefined;
  try {
    const hang = new Promise<'hang'>((resolve) => {
      timer = setTimeout(() => resolve('hang'), RUN_DEADLINE_MS);
    });
    const prepared = await Promise.race([source.prepare(), hang]);
    if (prepared === 'hang') outcome = 'hang';
    else if (prepared.ok) {
      const rows = prepared.value.reduce((n, s) => n + s.rows, 0);
      const read = await Promise.all(prepared.value.map((s) => source.read(s)));
      outcome =
        rows === (backend === 'bigquery' ? BQ_ROWS.length : OBJECT_ROWS) &&
        read.every((c, i) => c.rows === prepared.value[i]!.rows)
          ? 'success'
          : 'wrong-data';
    } else {
      // A clean failure says which object, listing or table failed.
      outcome = /s3:\/\/|gs:\/\/|BigQuery table/.test(prepared.error.message)
        ? 'clean'
        : { unclean: prepared.error.message };
      message = prepared.error.message;
    }
  } catch (e) {
    outcome = { unclean: `thrown: ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}` };
  } finally {
    clearTimeout(timer);
  }
  const partial = (await listTree(cache).catch(() => [])).filter((f) => /\.part$|\.tmp/.test(f)).length;
  await rm(cache, { recursive: true, force: true });
  return { outcome, retries: source.ioStats()?.retries ?? 0, partial, message };
};

/**
 * Runs a bounded, seeded fault campaign: each run prepares an S3 (s3rver), GCS or BigQuery (loopback servers) source
 * through a fault proxy applying a random schedule of 5xx, 429, resets, truncated bodies and stalls, then counts how
 * each run ended and what it left in its cache.
 * @internal
 */
export const runFaultCampaign = async (o: CampaignOptions): Promise<CampaignFigures> => {
  const servers = await startServers();
  const backends = o.backends ?? ['s3', 'gcs', 'bigquery'];
  const started = Date.now();
  const f = {
    runs: 0,
    faultsInjected: 0,
    retries: 0,
    successes: 0,
    cleanFailures: 0,
    hangs: 0,
    wrongData: 0,
    partialFilesLeft: 0,
  };
  const faultsByKind: Record<string, number> = {};
  const unclean: string[] = [];
  try {
    for (let i = 0; i < o.runs && Date.now() - started < o.seconds * 1000; i++) {
      const backend = backends[i % backends.length]!;
      const proxy = servers.proxies[backend];
      proxy.rules.length = 0;
      proxy.rules.push(...schedule(mulberry32(o.seed + i)));
      const before = proxy.injected.length;
      const run = await oneRun(backend, servers, o.seed + i);
      const injected = proxy.injected.slice(before);
      for (const fault of injected) faultsByKind[kindOf(fault)] = (faultsByKind[kindOf(fault)] ?? 0) + 1;
      Object.assign(f, {
        runs: f.runs + 1,
        faultsInjected: f.faultsInjected + injected.length,
        retries: f.retries + run.retries,
        partialFilesLeft: f.partialFilesLeft + run.partial,
        successes: f.successes + (run.outcome === 'success' ? 1 : 0),
        cleanFailures: f.cleanFailures + (run.outcome === 'clean' ? 1 : 0),
        hangs: f.hangs + (run.outcome === 'hang' ? 1 : 0),
        wrongData: f.wrongData + (run.outcome === 'wrong-data' ? 1 : 0),
      });
      if (typeof run.outcome === 'object') unclean.push(`run ${i} (${backend}): ${run.outcome.unclean}`);
      o.onRun?.(
        `run ${i} ${backend}: ${injected.length} fault(s) [${injected.map(kindOf).join(', ')}], ${run.retries} retries, ${typeof run.outcome === 'object' ? 'UNCLEAN' : run.outcome}, ${run.partial} partial file(s)${run.message ? ` — ${run.message}` : ''}`,
      );
    }
  } finally {
    await Promise.all(Object.values(servers.proxies).map((p) => p.close()));
    await Promise.all([servers.s3.close(), servers.gcs.close(), servers.bq.close()]);
  }
  return { seed: o.seed, ...f, faultsByKind, uncleanFailures: unclean, elapsedMs: Date.now() - started };
};
