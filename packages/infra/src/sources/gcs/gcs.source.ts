import type * as GcsSdk from '@google-cloud/storage';
import { ok, type Result } from '@maou/bench-domain';
import type { ObjectStore } from '../object-store/object-store';
import { openObjectSource, type ObjectStoreSpec } from '../object-store/open-object-source';
import { cloudSource, type CloudSourceCreator } from '../shared/cloud-source';
import type { CloudSourceError } from '../shared/cloud-source-error';
import { loadOptionalModule, requireModule } from '../shared/optional-module';
import { createGcsClient, GcsObjectStore, type GcsClientSettings } from './gcs-object-store';

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
export const createGcsDataSource: CloudSourceCreator<ObjectStoreSpec & { readonly kind: 'gcs' }> = async (
  spec,
  stage,
  context,
  o,
) => openObjectSource(spec, stage, context, o, await createGcsStore(spec.bucket, { apiEndpoint: spec.endpoint }));

/** @public */
export const gcsSource = cloudSource(
  'gcs',
  'Google Cloud Storage (--input-gcs, --input-bucket-name, ...)',
  createGcsDataSource,
);
