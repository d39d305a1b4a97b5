import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type * as BqSdk from '@google-cloud/bigquery';
import { err, formatIssues, ok, type DataSourceSpec } from '@maou/bench-domain';
import { cloudDeps, cloudSource, type CloudSourceCreator } from '../shared/cloud-source';
import { loadOptionalModule, requireModule } from '../shared/optional-module';
import { DEFAULT_RETRY_POLICY } from '../shared/retry-policy';
import { BigQueryDataSourceAdapter } from './bigquery-data-source.adapter';
import { validateBigQueryRef } from './bigquery-identifiers';
import { BigQueryTableReader, createBigQueryClient } from './bigquery-table-reader';

/** A BigQuery table source, not yet prepared; a bad identifier is an error value naming its flag. @public */
export const createBigQueryDataSource: CloudSourceCreator<Extract<DataSourceSpec, { kind: 'bigquery' }>> = async (
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
  const client = createBigQueryClient(sdk.value, {
    ...o.bigquery,
    apiEndpoint: spec.apiEndpoint,
    projectId: spec.projectId,
  });
  // Without --input-local-cache-dir pages live in a private temporary directory for this run only.
  const cacheDir = spec.localCacheDir ?? (await mkdtemp(join(tmpdir(), 'maou-bigquery-')));
  return ok(
    new BigQueryDataSourceAdapter(
      stage,
      new BigQueryTableReader(client, ref.value, spec.batchSize),
      {
        cacheDir,
        maxCachedBytes: spec.maxCachedBytes,
        sampleRatio: o.sampleRatio,
        seed: spec.seed,
        retry: o.retry ?? DEFAULT_RETRY_POLICY,
        callTimeoutMs: o.callTimeoutMs,
      },
      cloudDeps(context, o),
    ),
  );
};

/** @public */
export const bigquerySource = cloudSource(
  'bigquery',
  'a BigQuery table (--input-dataset-id, --input-table-name, ...)',
  createBigQueryDataSource,
);
