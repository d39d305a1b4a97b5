import type * as S3Sdk from '@aws-sdk/client-s3';
import type * as GcsSdk from '@google-cloud/storage';
import { ok, type Result } from '@maou/bench-domain';
import type { CloudSourceError } from '../shared/cloud-source-error';
import { createGcsClient, GcsObjectStore, type GcsClientSettings } from '../gcs/gcs-object-store';
import type { ObjectStore } from './object-store';
import { loadOptionalModule, requireModule } from '../shared/optional-module';
import { createS3Client, S3ObjectStore, type S3ClientSettings } from '../s3/s3-object-store';

/** Loads the S3 client library and connects a store to `bucket`. @internal */
export const createS3Store = async (bucket: string, settings: S3ClientSettings): Promise<Result<ObjectStore, CloudSourceError>> => {
  const sdk = await loadOptionalModule('@aws-sdk/client-s3', '--input-s3', () => requireModule<typeof S3Sdk>('@aws-sdk/client-s3'));
  if (!sdk.ok) return sdk;
  return ok(new S3ObjectStore(sdk.value, createS3Client(sdk.value, settings), bucket));
};

/** Loads the GCS client library and connects a store to `bucket`. @internal */
export const createGcsStore = async (bucket: string, settings: GcsClientSettings): Promise<Result<ObjectStore, CloudSourceError>> => {
  const sdk = await loadOptionalModule('@google-cloud/storage', '--input-gcs', () => requireModule<typeof GcsSdk>('@google-cloud/storage'));
  if (!sdk.ok) return sdk;
  return ok(new GcsObjectStore(createGcsClient(sdk.value, settings), bucket));
};
