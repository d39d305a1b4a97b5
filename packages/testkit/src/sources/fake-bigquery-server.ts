import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A column of the fake table, as the BigQuery REST API describes it. */
export interface FakeField {
  readonly name: string;
  readonly type: 'INTEGER' | 'FLOAT' | 'STRING' | 'BYTES' | 'DATE';
  readonly mode?: 'REPEATED' | 'NULLABLE';
}
/** Cell values: numbers, strings (STRING/DATE), Buffers (BYTES), arrays for REPEATED fields. */
export type FakeRow = Readonly<Record<string, unknown>>;

/**
 * The slice of the BigQuery v2 REST API the official client uses for this source: tables.get, tabledata.list,
 * jobs.insert and jobs.getQueryResults, each paged. It runs only the two SQL shapes the source issues
 * and answers 400 to anything else, so a test notices unexpected query text.
 */
export interface FakeBigQueryServer {
  readonly address: AddressInfo;
  readonly url: string;
  /** SQL text and named parameters of every query received */
  readonly queries: { readonly sql: string; readonly params: Readonly<Record<string, string>> }[];
  close(): Promise<void>;
}

const cell = (f: FakeField, v: unknown): unknown => {
  if (f.mode === 'REPEATED') return (v as unknown[]).map((x) => ({ v: cell({ ...f, mode: undefined }, x) }));
  if (f.type === 'BYTES') return Buffer.from(v as Uint8Array).toString('base64');
  return v === null || v === undefined ? null : String(v);
};
const encode = (fields: readonly FakeField[], rows: readonly FakeRow[]): unknown[] =>
  rows.map((r) => ({ f: fields.map((f) => ({ v: cell(f, r[f.name]) })) }));

const body = (req: IncomingMessage): Promise<string> =>
  new Promise((resolve) => {
    let s = '';
    req
      .on('data', (c: Buffer) => {
        s += c.toString();
      })
      .on('end', () => resolve(s));
  });

interface Job {
  readonly fields: readonly FakeField[];
  readonly rows: readonly FakeRow[];
  polls: number;
}

export const startFakeBigQuery = async (opts: {
  project: string;
  dataset: string;
  table: string;
  fields: readonly FakeField[];
  rows: readonly FakeRow[];
  /** most rows one tabledata.list call returns, whatever the client asks */
  serverPageCap?: number;
}): Promise<FakeBigQueryServer> => {
  const { project, dataset, table, fields, rows } = opts;
  const cap = opts.serverPageCap ?? 1_000_000;
  const base = `/bigquery/v2/projects/${project}`;
  const tablePath = `${base}/datasets/${dataset}/tables/${table}`;
  const fullName = `\`${project}.${dataset}.${table}\``;
  const queries: FakeBigQueryServer['queries'] = [];
  const jobs = new Map<string, Job>();

  const runQuery = (sql: string, params: Record<string, string>): Job | null => {
    const group =
      /^SELECT `(\w+)` AS partition_value, COUNT\(\*\) AS cnt FROM (`[^`]+`)(?: WHERE `\w+` BETWEEN DATE\('1970-01-01'\) AND DATE\('2100-01-01'\))? GROUP BY `\w+` ORDER BY partition_value$/.exec(
        sql,
      );
    if (group !== null && group[2] === fullName) {
      const counts = new Map<string, number>();
      for (const r of rows) counts.set(String(r[group[1]]), (counts.get(String(r[group[1]])) ?? 0) + 1);
      const keyField = fields.find((f) => f.name === group[1]);
      if (keyField === undefined) return null;
      const out = [...counts.entries()]
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([k, n]) => ({ partition_value: k, cnt: n }));
      return {
        fields: [
          { ...keyField, name: 'partition_value' },
          { name: 'cnt', type: 'INTEGER' },
        ],
        rows: out,
        polls: 0,
      };
    }
    const filter = /^SELECT \* FROM (`[^`]+`) WHERE `(\w+)` = @value$/.exec(sql);
    if (filter !== null && filter[1] === fullName && 'value' in params) {
      return { fields, rows: rows.filter((r) => String(r[filter[2]]) === params.value), polls: 0 };
    }
    return null;
  };

  const handle = async (req: IncomingMessage): Promise<[number, unknown]> => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const q = url.searchParams;
    const page = (
      all: readonly FakeRow[],
      fs: readonly FakeField[],
      limit: number,
      start: number,
    ): Record<string, unknown> => {
      const slice = all.slice(start, start + limit);
      const next = start + slice.length < all.length ? { pageToken: String(start + slice.length) } : {};
      return { totalRows: String(all.length), rows: encode(fs, slice), ...next };
    };
    if (req.method === 'GET' && url.pathname === tablePath) {
      return [
        200,
        {
          kind: 'bigquery#table',
          tableReference: { projectId: project, datasetId: dataset, tableId: table },
          numRows: String(rows.length),
          schema: { fields },
        },
      ];
    }
    if (req.method === 'GET' && url.pathname === `${tablePath}/data`) {
      const start = Number(q.get('pageToken') ?? q.get('startIndex') ?? '0');
      return [
        200,
        {
          kind: 'bigquery#tableDataList',
          ...page(rows, fields, Math.min(cap, Number(q.get('maxResults') ?? cap)), start),
        },
      ];
    }
    if (req.method === 'POST' && url.pathname === `${base}/jobs`) {
      const job = JSON.parse(await body(req)) as {
        jobReference: { jobId: string };
        configuration: {
          query: { query: string; queryParameters?: { name: string; parameterValue: { value: string } }[] };
        };
      };
      const params = Object.fromEntries(
        (job.configuration.query.queryParameters ?? []).map((p) => [p.name, p.parameterValue.value]),
      );
      const sql = job.configuration.query.query;
      queries.push({ sql, params });
      const result = runQuery(sql, params);
      if (result === null) return [400, { error: { code: 400, message: `fake BigQuery does not run: ${sql}` } }];
      jobs.set(job.jobReference.jobId, result);
      return [
        200,
        {
          kind: 'bigquery#job',
          jobReference: { ...job.jobReference, projectId: project, location: 'US' },
          status: { state: 'DONE' },
        },
      ];
    }
    const poll = new RegExp(`^${base}/queries/([^/]+)$`).exec(url.pathname);
    if (req.method === 'GET' && poll !== null) {
      const job = jobs.get(decodeURIComponent(poll[1]));
      if (job === undefined) return [404, { error: { code: 404, message: 'Not found: Job' } }];
      job.polls += 1;
      // The first poll reports the job as still running, as a real one often does.
      if (job.polls === 1)
        return [
          200,
          { kind: 'bigquery#getQueryResultsResponse', jobComplete: false, jobReference: { jobId: poll[1] } },
        ];
      const start = Number(q.get('pageToken') ?? '0');
      return [
        200,
        {
          kind: 'bigquery#getQueryResultsResponse',
          jobComplete: true,
          schema: { fields: job.fields },
          ...page(job.rows, job.fields, Number(q.get('maxResults') ?? 1e9), start),
        },
      ];
    }
    return [404, { error: { code: 404, message: `not served by the fake: ${req.method} ${url.pathname}` } }];
  };

  const server: Server = createServer((req, res) => {
    void handle(req).then(([status, payload]) => {
      const text = JSON.stringify(payload);
      res.writeHead(status, {
        'content-type': 'application/json; charset=UTF-8',
        'content-length': Buffer.byteLength(text),
      });
      res.end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as AddressInfo;
  return {
    address,
    url: `http://127.0.0.1:${address.port}`,
    queries,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};
