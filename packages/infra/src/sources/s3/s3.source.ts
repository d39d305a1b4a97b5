import type * as S3Sdk from '@aws-sdk/client-s3';
import { objectStoreSource, type ObjectStoreKindSpec } from '../object-store/object-store-source';
import { createS3Client, S3ObjectStore, type S3ClientSettings } from './s3-object-store';

/** An S3 source's spec. @public */
export type S3Spec = ObjectStoreKindSpec<'s3'>;

/** Amazon S3 or any S3-compatible endpoint; callers may pass credentials and a region (the default AWS chain else). @public */
export const s3Source = objectStoreSource<'s3', typeof S3Sdk, Omit<S3ClientSettings, 'endpoint'>>({
  kind: 's3',
  help: 'Amazon S3 or an S3-compatible store',
  label: 'S3',
  flag: { name: 'input-s3', describe: 'read from S3' },
  sdkModule: '@aws-sdk/client-s3',
  connect: (sdk, target, client) =>
    new S3ObjectStore(sdk, createS3Client(sdk, { ...client, endpoint: target.endpoint }), target.bucket),
});
