import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type * as BqSdk from '@google-cloud/bigquery';
import { err, formatIssues, ok, type DataSourceSpec } from '@maou/bench-domain';
import type { SourceFlag } from '@maou/bench-use-cases';
import { cloudDeps, cloudSource, type CloudSourceCreator } from '../shared/cloud-source';
import { CLOUD_FLAGS, flagValue, numberFlag, requireFlags } from '../shared/source-flags';
import { loadOptionalModule, requireModule } from '../shared/optional-module';
import { DEFAULT_RETRY_POLICY } from '../shared/retry-policy';
import { BigQueryDataSourceAdapter } from './bigquery-data-source.adapter';
import { checkBigQueryNames, validateBigQueryRef } from './bigquery-identifiers';
import { BigQueryTableReader, createBigQueryClient, type BigQueryClientSettings } from './bigquery-table-reader';

/** A BigQuery table source's spec. @public */
export interface BigQuerySpec extends DataSourceSpec {
  readonly kind: 'bigquery';
  readonly datasetId: string;
  readonly tableName: string;
  readonly batchSize: number;
  readonly maxCachedBytes: number;
  readonly seed: number;
  /** `--input-request-timeout` in ms (60 s) */
  readonly requestTimeoutMs?: number;
  readonly clusteringKey?: string;
  readonly partitioningKeyDate?: string;
  readonly localCacheDir?: string;
  readonly apiEndpoint?: string;
  readonly projectId?: string;
}

/** What callers may pass a BigQuery source besides its spec (tests: an offline auth client, short call limits). @public */
export interface BigQueryClientOptions extends Omit<BigQueryClientSettings, 'apiEndpoint' | 'projectId'> {
  /** one API call (a page, a query poll; not the whole shard) that takes longer is retried (default 5 min) */
  readonly callTimeoutMs?: number;
}

/** A BigQuery table source, not yet prepared; a bad identifier is an error value naming its flag. @public */
export const createBigQueryDataSource: CloudSourceCreator<BigQuerySpec, BigQueryClientOptions> = async (
  spec,
  stage,
  context,
  o,
) => {
  const ref = validateBigQueryRef(spec);
  if (!ref.ok) return err({ kind: 'invalid-identifier', message: formatIssues(ref.error) });
  const sdk = await loadOptionalModule('@google-cloud/bigquery', '--input-dataset-id', () =>
    requireModule<typeof BqSdk>('@google-cloud/bigquery'),
  );
  if (!sdk.ok) return sdk;
  const { callTimeoutMs, ...settings } = o.client ?? {};
  const client = createBigQueryClient(sdk.value, {
    ...settings,
    apiEndpoint: spec.apiEndpoint,
    projectId: spec.projectId,
  });
  // Without --input-local-cache-dir pages live in a private temporary directory for this run only.
  const cacheDir = spec.localCacheDir ?? (await mkdtemp(join(tmpdir(), 'maou-bigquery-')));
  return ok(
    new BigQueryDataSourceAdapter(
      stage,
      new BigQueryTableReader(
        client,
        ref.value,
        spec.batchSize,
        callTimeoutMs,
        spec.requestTimeoutMs,
        spec.apiEndpoint,
      ),
      {
        cacheDir,
        maxCachedBytes: spec.maxCachedBytes,
        sampleRatio: o.sampleRatio,
        seed: spec.seed,
        retry: o.retry ?? DEFAULT_RETRY_POLICY,
      },
      cloudDeps(context, o),
    ),
  );
};

const FLAGS = {
  'input-dataset-id': { type: 'string', describe: 'BigQuery dataset' },
  'input-table-name': { type: 'string', describe: 'BigQuery table' },
  'input-batch-size': {
    type: 'number',
    describe: 'BigQuery rows per page',
    bounds: { min: 1, max: 1e7, integer: true },
    default: 10_000,
  },
  'input-max-cached-bytes': {
    type: 'number',
    describe: 'BigQuery local cache budget in bytes',
    bounds: { min: 1, max: 2 ** 50, integer: true },
    default: 500 * 2 ** 20,
  },
  'input-clustering-key': { type: 'string', describe: 'BigQuery clustering key' },
  'input-partitioning-key-date': { type: 'string', describe: 'BigQuery DATE partition column name' },
  'input-local-cache': { type: 'boolean', describe: 'cache BigQuery pages locally' },
  ...CLOUD_FLAGS,
} as const satisfies Record<string, SourceFlag>;

const text = (flags: Readonly<Record<string, unknown>>, name: string): string | undefined =>
  (flagValue(flags, name) as string | undefined) || undefined;

/** @public */
export const bigquerySource = cloudSource<BigQuerySpec, BigQueryClientOptions>(
  {
    kind: 'bigquery',
    help: 'a BigQuery table',
    flags: FLAGS,
    selectedBy: ['input-dataset-id', 'input-table-name'],
    stages: [3],
    parse(flags, run) {
      const [datasetId, tableName, clusteringKey, partitioningKeyDate, localCacheDir, apiEndpoint] = [
        'input-dataset-id',
        'input-table-name',
        'input-clustering-key',
        'input-partitioning-key-date',
        'input-local-cache-dir',
        'input-endpoint',
      ].map((n) => text(flags, n));
      const issues = [
        ...requireFlags(flags, ['input-dataset-id', 'input-table-name'], 'for a BigQuery source'),
        ...checkBigQueryNames({ datasetId, tableName, clusteringKey, partitioningKeyDate }),
      ];
      if (issues.length) return { issues };
      const cacheDir = flagValue(flags, 'input-local-cache') || localCacheDir ? localCacheDir : undefined;
      return {
        warnings: [],
        spec: {
          kind: 'bigquery',
          label: 'BigQuery',
          sampled: true,
          streamable: false,
          datasetId: datasetId!,
          tableName: tableName!,
          batchSize: numberFlag(flags, FLAGS, 'input-batch-size'),
          seed: run.seed,
          maxCachedBytes: numberFlag(flags, FLAGS, 'input-max-cached-bytes'),
          requestTimeoutMs: numberFlag(flags, FLAGS, 'input-request-timeout') * 1000,
          ...(clusteringKey ? { clusteringKey } : {}),
          ...(partitioningKeyDate ? { partitioningKeyDate } : {}),
          ...(cacheDir
            ? {
                localCacheDir: cacheDir,
                reads: [cacheDir],
                writes: { field: '--input-local-cache-dir', dir: cacheDir },
              }
            : {}),
          ...(apiEndpoint ? { apiEndpoint } : {}),
        },
      };
    },
  },
  createBigQueryDataSource,
);
