import type * as S3Sdk from '@aws-sdk/client-s3';
import { ok, type Result } from '@maou/bench-domain';
import type { ObjectStore } from '../object-store/object-store';
import { openObjectSource, type ObjectStoreSpec } from '../object-store/open-object-source';
import { cloudSource, type CloudSourceCreator } from '../shared/cloud-source';
import type { CloudSourceError } from '../shared/cloud-source-error';
import { loadOptionalModule, requireModule } from '../shared/optional-module';
import { createS3Client, S3ObjectStore, type S3ClientSettings } from './s3-object-store';

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
export const createS3DataSource: CloudSourceCreator<ObjectStoreSpec & { readonly kind: 's3' }> = async (
  spec,
  stage,
  context,
  o,
) => openObjectSource(spec, stage, context, o, await createS3Store(spec.bucket, { ...o.s3, endpoint: spec.endpoint }));

/** @public */
export const s3Source = cloudSource(
  's3',
  'Amazon S3 or an S3-compatible store (--input-s3, --input-bucket-name, ...)',
  createS3DataSource,
);
