import type * as GcsSdk from '@google-cloud/storage';
import { objectStoreSource, type ObjectStoreKindSpec } from '../object-store/object-store-source';
import { createGcsClient, GcsObjectStore, type GcsClientSettings } from './gcs-object-store';

/** A Google Cloud Storage source's spec. @public */
export type GcsSpec = ObjectStoreKindSpec<'gcs'>;

/** Google Cloud Storage; callers may pass the project (Application Default Credentials else). @public */
export const gcsSource = objectStoreSource<'gcs', typeof GcsSdk, Pick<GcsClientSettings, 'projectId'>>({
  kind: 'gcs',
  help: 'Google Cloud Storage',
  label: 'GCS',
  flag: { name: 'input-gcs', describe: 'read from Google Cloud Storage' },
  sdkModule: '@google-cloud/storage',
  connect: (sdk, target, client) =>
    new GcsObjectStore(
      createGcsClient(sdk, { ...client, apiEndpoint: target.endpoint, timeoutMs: target.requestTimeoutMs }),
      target.bucket,
    ),
});
