import type * as GcsSdk from '@google-cloud/storage';
import { ok, type Result } from '@maou/bench-domain';
import type { ObjectStore } from '../object-store/object-store';
import { OBJECT_STORE_FLAGS, parseObjectStore, type ObjectStoreSpec } from '../object-store/object-store-settings';
import { openObjectSource } from '../object-store/open-object-source';
import { cloudSource, type CloudSourceCreator } from '../shared/cloud-source';
import type { CloudSourceError } from '../shared/cloud-source-error';
import { loadOptionalModule, requireModule } from '../shared/optional-module';
import { createGcsClient, GcsObjectStore, type GcsClientSettings } from './gcs-object-store';

/** A Google Cloud Storage source's spec. @public */
export type GcsSpec = ObjectStoreSpec & { readonly kind: 'gcs' };

/** Loads the GCS client library and connects a store to `bucket`. @internal */
export const createGcsStore = async (
  bucket: string,
  settings: GcsClientSettings,
): Promise<Result<ObjectStore, CloudSourceError>> => {
  const sdk = await loadOptionalModule('@google-cloud/storage', '--input-gcs', () =>
    requireModule<typeof GcsSdk>('@google-cloud/storage'),
  );
  if (!sdk.ok) return sdk;
  return ok(new GcsObjectStore(createGcsClient(sdk.value, settings), bucket));
};

/** A Google Cloud Storage source, not yet prepared. @public */
export const createGcsDataSource: CloudSourceCreator<GcsSpec> = async (spec, stage, context, o) =>
  openObjectSource(
    spec,
    stage,
    context,
    o,
    await createGcsStore(spec.bucket, { apiEndpoint: spec.endpoint, timeoutMs: spec.requestTimeoutMs }),
  );

/** @public */
export const gcsSource = cloudSource<GcsSpec>(
  {
    kind: 'gcs',
    help: 'Google Cloud Storage',
    flags: { 'input-gcs': { type: 'boolean', describe: 'read from Google Cloud Storage' }, ...OBJECT_STORE_FLAGS },
    selectedBy: ['input-gcs'],
    stages: [3],
    parse: parseObjectStore('gcs', 'GCS'),
  },
  createGcsDataSource,
);
