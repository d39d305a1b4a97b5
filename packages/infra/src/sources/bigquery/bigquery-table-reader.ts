import type * as BqSdk from '@google-cloud/bigquery';
import type { BigQuery, Query } from '@google-cloud/bigquery';
import { PROJECT, quotedColumn, quotedTable, type BigQueryTableRef } from './bigquery-identifiers';
import { AnswerBudget, DEFAULT_REQUEST_TIMEOUT_S, DeadlineExceededError } from '../shared/deadline';
import { errorReasons, transientClassifier } from '../shared/transient-error';

type Row = Record<string, unknown>;

/** One shard of a table: a row range (tabledata.list) or all rows with one key value (a parameterised query). @internal */
export type BigQueryShardPlan =
  | { readonly id: string; readonly rows: number; readonly kind: 'range'; readonly start: number }
  | {
      readonly id: string;
      readonly rows: number;
      readonly kind: 'group';
      readonly column: string;
      readonly value: unknown;
    };

/**
 * The reasons BigQuery gives for a failure worth retrying, whatever the status: rate limits come with 403, a job's
 * backend or internal failure with 400 (or with none, in a finished job's result).
 */
const BIGQUERY_TRANSIENT = new Set([
  'rateLimitExceeded',
  'userRateLimitExceeded',
  'backendError',
  'internalError',
  'jobBackendError',
  'jobInternalError',
]);

/** BigQuery's classifier: its reasons, then the shared HTTP rules. @internal */
export const isBigQueryTransient = transientClassifier((error) =>
  errorReasons(error).some((r) => BIGQUERY_TRANSIENT.has(r)),
);

const label = (v: unknown): string =>
  typeof v === 'object' && v !== null && 'value' in v ? String((v as { value: unknown }).value) : String(v);

// How long one API call (a page, a query poll) may take before it is abandoned and its shard retried.
const DEFAULT_CALL_TIMEOUT_MS = 300_000;

/**
 * The BigQuery calls of the source, single attempts. Only validated identifiers are spliced into SQL (quoted);
 * key values always travel as query parameters. Each HTTP call has its own deadline, not the shard: a page that
 * takes many calls, or a query polled for long, is slow but fine, while a call that never answers is not.
 * @internal
 */
export class BigQueryTableReader {
  readonly isTransient = isBigQueryTransient;

  constructor(
    private readonly client: BigQuery,
    private readonly ref: BigQueryTableRef,
    private readonly batchSize: number,
    private readonly callTimeoutMs = DEFAULT_CALL_TIMEOUT_MS,
    /** `--input-request-timeout` in ms: one request, all its tries together, waits this long for an answer */
    private readonly requestTimeoutMs = DEFAULT_REQUEST_TIMEOUT_S * 1000,
    private readonly apiEndpoint?: string,
  ) {}

  /** The wait for an answer that one request (and its tries) may spend; pass it to every call of its tries. */
  budget(what: string): AnswerBudget {
    return new AnswerBudget(what, this.apiEndpoint ?? 'the default BigQuery endpoint', this.requestTimeoutMs);
  }

  /** The billing project: given, or the one the credentials name; checked before it reaches SQL. */
  async project(budget: AnswerBudget): Promise<string> {
    const p = this.ref.projectId ?? (await this.call('the project id', () => this.client.getProjectId(), budget));
    if (!PROJECT.test(p)) throw new Error(`project id ${JSON.stringify(p)} is not a valid Google Cloud project id`);
    return p;
  }

  /** Shards of the table: per partition/cluster value when a key is given (maou's grouping), else batchSize-row ranges. */
  async plan(budget: AnswerBudget): Promise<BigQueryShardPlan[]> {
    const key = this.ref.partitioningKeyDate ?? this.ref.clusteringKey;
    if (key === null) return this.planRanges(budget);
    const table = quotedTable(await this.project(budget), this.ref);
    const col = quotedColumn(key);
    // Partitioned tables may require a partition filter; this one admits every plausible date.
    const where =
      this.ref.partitioningKeyDate !== null ? ` WHERE ${col} BETWEEN DATE('1970-01-01') AND DATE('2100-01-01')` : '';
    const rows = await this.queryAll(
      `SELECT ${col} AS partition_value, COUNT(*) AS cnt FROM ${table}${where} GROUP BY ${col} ORDER BY partition_value`,
      {},
      budget,
    );
    return rows.map((r) => ({
      id: `${key}=${label(r.partition_value)}`,
      rows: Number(r.cnt),
      kind: 'group' as const,
      column: key,
      value: r.partition_value,
    }));
  }

  async fetch(shard: BigQueryShardPlan, budget: AnswerBudget): Promise<Row[]> {
    if (shard.kind === 'range') return this.fetchRange(shard.start, shard.rows, budget);
    const sql = `SELECT * FROM ${quotedTable(await this.project(budget), this.ref)} WHERE ${quotedColumn(shard.column)} = @value`;
    return this.queryAll(sql, { value: shard.value }, budget);
  }

  private async planRanges(budget: AnswerBudget): Promise<BigQueryShardPlan[]> {
    const [meta] = await this.call('the table metadata', () => this.table().getMetadata(), budget);
    const total = Number((meta as { numRows?: unknown }).numRows ?? 0);
    const n = Math.ceil(total / this.batchSize);
    return Array.from({ length: n }, (_, i) => {
      const start = i * this.batchSize;
      const rows = Math.min(this.batchSize, total - start);
      return { id: `rows${start}-${start + rows}`, rows, kind: 'range' as const, start };
    });
  }

  /** tabledata.list from `start`; the server may return fewer rows per call than asked, so keep going. */
  private async fetchRange(start: number, count: number, budget: AnswerBudget): Promise<Row[]> {
    const out: Row[] = [];
    while (out.length < count) {
      const from = start + out.length;
      const [rows] = await this.call(
        `tabledata.list from row ${from}`,
        () => this.table().getRows({ startIndex: String(from), maxResults: count - out.length, autoPaginate: false }),
        budget,
      );
      if (rows.length === 0)
        throw new Error(`${this.where()}: rows ${start + out.length}.. are missing (the table shrank while reading)`);
      out.push(...(rows as Row[]));
    }
    return out;
  }

  /** jobs.insert, then getQueryResults pages of batchSize rows until no page token is left. */
  private async queryAll(query: string, params: Record<string, unknown>, budget: AnswerBudget): Promise<Row[]> {
    const [job] = await this.call(
      'jobs.insert',
      () => this.client.createQueryJob({ query, params, useLegacySql: false } as Query),
      budget,
    );
    const out: Row[] = [];
    let pageToken: string | undefined;
    for (;;) {
      const [rows, next, resp] = await this.call(
        'jobs.getQueryResults',
        () => job.getQueryResults({ maxResults: this.batchSize, autoPaginate: false, pageToken }),
        budget,
      );
      // A job still running answers with no rows and jobComplete false: ask again for the same page.
      if ((resp as { jobComplete?: boolean } | undefined)?.jobComplete === false) continue;
      out.push(...(rows as Row[]));
      pageToken = (next as { pageToken?: string } | null | undefined)?.pageToken;
      if (pageToken === undefined) break;
    }
    return out;
  }

  private call<T>(what: string, request: () => Promise<T>, budget: AnswerBudget): Promise<T> {
    const ms = this.callTimeoutMs;
    // the library takes no abort signal
    return budget.wait(
      () => request(),
      ms,
      () => new DeadlineExceededError(what, ms),
    );
  }

  private table() {
    return this.client.dataset(this.ref.datasetId).table(this.ref.tableName);
  }

  where(): string {
    return `BigQuery table ${this.ref.datasetId}.${this.ref.tableName}`;
  }
}

/** What BigQuery access needs; credentials come from Application Default Credentials. @public */
export interface BigQueryClientSettings {
  readonly apiEndpoint?: string;
  readonly projectId?: string;
  readonly location?: string;
  /** extra constructor options (tests pass an offline `authClient` here) */
  readonly clientOptions?: Readonly<Record<string, unknown>>;
}

/** Builds the client with library retries off, so every retry is ours and counted. @internal */
export const createBigQueryClient = (sdk: typeof BqSdk, settings: BigQueryClientSettings): BigQuery =>
  new sdk.BigQuery({
    apiEndpoint: settings.apiEndpoint,
    projectId: settings.projectId,
    location: settings.location,
    autoRetry: false,
    maxRetries: 0,
    ...settings.clientOptions,
  });
