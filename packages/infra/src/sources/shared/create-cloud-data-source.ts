import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type * as BqSdk from '@google-cloud/bigquery';
import { err, formatIssues, ok, type DataSourceSpec, type Result, type Stage } from '@maou/bench-domain';
import type { ClockPort, DataSourcePort, LoggerPort, ProgressPort, ShardRef } from '@maou/bench-app';
import { BigQueryDataSourceAdapter } from '../bigquery/bigquery-data-source.adapter';
import { validateBigQueryRef } from '../bigquery/bigquery-identifiers';
import { BigQueryTableReader, createBigQueryClient, type BigQueryClientSettings } from '../bigquery/bigquery-table-reader';
import { CloudSourceFailure, type CloudSourceError } from './cloud-source-error';
import { createGcsStore, createS3Store } from '../object-store/create-object-store';
import { ObjectStoreDataSourceAdapter, type CloudSourceDeps, type StageFileReader } from '../object-store/object-store-data-source.adapter';
import { loadOptionalModule, requireModule } from './optional-module';
import { DEFAULT_RETRY_POLICY, type RetryHooks, type RetryPolicy } from './retry-policy';
import type { S3ClientSettings } from '../s3/s3-object-store';
import { readStageFile } from '../local/read-stage-file';

/** The cloud variants of {@link DataSourceSpec}. @public */
export type CloudDataSourceSpec = Extract<DataSourceSpec, { kind: 's3' | 'gcs' | 'bigquery' }>;

/** A cloud source; `prepare` lists and downloads up front and reports failures as values. @public */
export interface CloudDataSource extends DataSourcePort {
  prepare(): Promise<Result<readonly ShardRef[], CloudSourceError>>;
}

/** Run-level settings: `--sample-ratio` and overrides that tests and odd deployments need (the seed is the spec's). @public */
export interface CloudSourceOptions {
  readonly sampleRatio: number | null;
  readonly retry?: RetryPolicy;
  /** S3/GCS: a transfer with no byte for this long is retried (default 30 s) */
  readonly idleTimeoutMs?: number;
  /** BigQuery: one API call that takes longer is retried (default 5 min) */
  readonly callTimeoutMs?: number;
  readonly readStageFile?: StageFileReader;
  readonly retryHooks?: Pick<RetryHooks, 'sleep' | 'random'>;
  readonly s3?: Omit<S3ClientSettings, 'endpoint'>;
  readonly bigquery?: Omit<BigQueryClientSettings, 'apiEndpoint' | 'projectId'>;
}

/** What a cloud source reports to: logs, time, and (optionally) download progress. @public */
export interface CloudSourceContext {
  readonly logger: LoggerPort;
  readonly clock: ClockPort;
  /** one task per source preparation; silent when absent */
  readonly progress?: ProgressPort;
}

type Opener<S extends CloudDataSourceSpec> = (spec: S, stage: Stage, deps: CloudSourceDeps, o: CloudSourceOptions) => Promise<Result<CloudDataSource, CloudSourceError>>;

const openObjectSource = (spec: Extract<CloudDataSourceSpec, { kind: 's3' | 'gcs' }>, stage: Stage, deps: CloudSourceDeps, o: CloudSourceOptions, store: Awaited<ReturnType<typeof createS3Store>>) => {
  if (!store.ok) return store;
  return ok(new ObjectStoreDataSourceAdapter(stage, store.value, {
    prefix: spec.prefix, dataName: spec.dataName, localCacheDir: spec.localCacheDir, maxWorkers: spec.maxWorkers,
    enableBundling: spec.enableBundling, bundleSizeGb: spec.bundleSizeGb, sampleRatio: o.sampleRatio, seed: spec.seed,
    retry: o.retry ?? DEFAULT_RETRY_POLICY, idleTimeoutMs: o.idleTimeoutMs,
  }, deps));
};

const openS3: Opener<Extract<CloudDataSourceSpec, { kind: 's3' | 'gcs' }>> = async (spec, stage, deps, o) =>
  openObjectSource(spec, stage, deps, o, await createS3Store(spec.bucket, { ...o.s3, endpoint: spec.endpoint }));

const openGcs: Opener<Extract<CloudDataSourceSpec, { kind: 's3' | 'gcs' }>> = async (spec, stage, deps, o) =>
  openObjectSource(spec, stage, deps, o, await createGcsStore(spec.bucket, { apiEndpoint: spec.endpoint }));

const openBigQuery: Opener<Extract<CloudDataSourceSpec, { kind: 'bigquery' }>> = async (spec, stage, deps, o) => {
  const ref = validateBigQueryRef(spec);
  if (!ref.ok) return err({ kind: 'invalid-identifier', message: formatIssues(ref.error) });
  const sdk = await loadOptionalModule('@google-cloud/bigquery', '--input-dataset-id', () => requireModule<typeof BqSdk>('@google-cloud/bigquery'));
  if (!sdk.ok) return sdk;
  const client = createBigQueryClient(sdk.value, { ...o.bigquery, apiEndpoint: spec.apiEndpoint, projectId: spec.projectId });
  // Without --input-local-cache-dir pages live in a private temporary directory for this run only.
  const cacheDir = spec.localCacheDir ?? (await mkdtemp(join(tmpdir(), 'maou-bigquery-')));
  return ok(new BigQueryDataSourceAdapter(stage, new BigQueryTableReader(client, ref.value, spec.batchSize), {
    cacheDir, maxCachedBytes: spec.maxCachedBytes, sampleRatio: o.sampleRatio, seed: spec.seed, retry: o.retry ?? DEFAULT_RETRY_POLICY, callTimeoutMs: o.callTimeoutMs,
  }, deps));
};

// One opener per kind (a registry, not a chain of ifs).
const OPENERS: { readonly [K in CloudDataSourceSpec['kind']]: Opener<Extract<CloudDataSourceSpec, { kind: K }>> } = {
  s3: openS3, gcs: openGcs, bigquery: openBigQuery,
};

/**
 * Builds the S3, GCS or BigQuery source a spec names. Nothing is listed or downloaded yet: call `prepare()`
 * (or `shards()`). Identifier and missing-library problems come back as error values.
 * @public
 */
export const createCloudDataSource = (spec: CloudDataSourceSpec, stage: Stage, deps: CloudSourceContext, options: CloudSourceOptions): Promise<Result<CloudDataSource, CloudSourceError>> => {
  const full: CloudSourceDeps = { ...deps, readStageFile: options.readStageFile ?? readStageFile, retryHooks: options.retryHooks };
  const open = OPENERS[spec.kind] as Opener<CloudDataSourceSpec>;
  return open(spec, stage, full, options);
};

/**
 * An opener for the datasource registry: builds the source and prepares it, so listing and download errors
 * surface before any batch is timed; failures reject with {@link CloudSourceFailure}. The sampling seed is the
 * spec's (the run's `--seed`), never one fixed when the opener was built.
 * @public
 */
export const cloudSourceOpener = (deps: CloudSourceContext, extra: Omit<CloudSourceOptions, 'sampleRatio'> = {}) =>
  async (spec: CloudDataSourceSpec, stage: Stage, sampleRatio: number | null): Promise<DataSourcePort> => {
    const source = await createCloudDataSource(spec, stage, deps, { ...extra, sampleRatio });
    if (!source.ok) throw new CloudSourceFailure(source.error);
    const ready = await source.value.prepare();
    if (!ready.ok) throw new CloudSourceFailure(ready.error);
    return source.value;
  };
