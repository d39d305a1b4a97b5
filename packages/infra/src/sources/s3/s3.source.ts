import type * as S3Sdk from '@aws-sdk/client-s3';
import { ok, type Result } from '@maou/bench-domain';
import type { ObjectStore } from '../object-store/object-store';
import { OBJECT_STORE_FLAGS, parseObjectStore, type ObjectStoreSpec } from '../object-store/object-store-settings';
import { openObjectSource } from '../object-store/open-object-source';
import { cloudSource, type CloudSourceCreator } from '../shared/cloud-source';
import type { CloudSourceError } from '../shared/cloud-source-error';
import { loadOptionalModule, requireModule } from '../shared/optional-module';
import { createS3Client, S3ObjectStore, type S3ClientSettings } from './s3-object-store';

/** An S3 source's spec. @public */
export type S3Spec = ObjectStoreSpec & { readonly kind: 's3' };

/** Loads the S3 client library and connects a store to `bucket`. @internal */
export const createS3Store = async (
  bucket: string,
  settings: S3ClientSettings,
): Promise<Result<ObjectStore, CloudSourceError>> => {
  const sdk = await loadOptionalModule('@aws-sdk/client-s3', '--input-s3', () =>
    requireModule<typeof S3Sdk>('@aws-sdk/client-s3'),
  );
  if (!sdk.ok) return sdk;
  return ok(new S3ObjectStore(sdk.value, createS3Client(sdk.value, settings), bucket));
};

/** An S3 (or S3-compatible) source, not yet prepared. @public */
export const createS3DataSource: CloudSourceCreator<S3Spec> = async (spec, stage, context, o) =>
  openObjectSource(spec, stage, context, o, await createS3Store(spec.bucket, { ...o.s3, endpoint: spec.endpoint }));

/** @public */
export const s3Source = cloudSource<S3Spec>(
  {
    kind: 's3',
    help: 'Amazon S3 or an S3-compatible store',
    flags: { 'input-s3': { type: 'boolean', describe: 'read from S3' }, ...OBJECT_STORE_FLAGS },
    selectedBy: ['input-s3'],
    stages: [3],
    parse: parseObjectStore('s3', 'S3'),
  },
  createS3DataSource,
);
