import type { Readable } from 'node:stream';
import type { S3Client } from '@aws-sdk/client-s3';
import type * as S3Sdk from '@aws-sdk/client-s3';
import type { ObjectEntry, ObjectStore } from '../object-store/object-store';
import { errorName, transientClassifier } from '../shared/transient-error';

type S3Module = typeof S3Sdk;

/**
 * AWS error names for throttling and server-side failures, whatever the status: S3 answers `RequestTimeout` (its
 * socket was not read from in time) with HTTP 400, and the SDK's own `TimeoutError` has no status at all.
 */
const AWS_TRANSIENT = new Set([
  'SlowDown',
  'ThrottlingException',
  'Throttling',
  'RequestTimeout',
  'InternalError',
  'ServiceUnavailable',
  'TimeoutError',
]);

/** S3's classifier: AWS's names, then the shared HTTP rules. @internal */
export const isS3Transient = transientClassifier((error) => AWS_TRANSIENT.has(errorName(error)));

/** S3 (or any S3-compatible endpoint) through `@aws-sdk/client-s3`, single attempts. @internal */
export class S3ObjectStore implements ObjectStore {
  readonly kind = 's3';
  readonly scheme = 's3';
  readonly isTransient = isS3Transient;

  constructor(
    private readonly sdk: S3Module,
    private readonly client: S3Client,
    readonly bucket: string,
  ) {}

  async list(prefix: string, signal?: AbortSignal): Promise<ObjectEntry[]> {
    const entries: ObjectEntry[] = [];
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new this.sdk.ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ContinuationToken: token }),
        { abortSignal: signal },
      );
      for (const o of page.Contents ?? []) {
        if (o.Key !== undefined) entries.push({ key: o.Key, size: Number(o.Size ?? 0) });
      }
      token = page.IsTruncated === true ? page.NextContinuationToken : undefined;
    } while (token !== undefined);
    return entries;
  }

  async read(key: string, signal?: AbortSignal): Promise<Readable> {
    const out = await this.client.send(new this.sdk.GetObjectCommand({ Bucket: this.bucket, Key: key }), {
      abortSignal: signal,
    });
    if (out.Body === undefined) throw new Error(`s3://${this.bucket}/${key}: response has no body`);
    // In Node the body is the http.IncomingMessage itself, with SDK helpers mixed in.
    return out.Body as Readable;
  }
}

/** What S3 access needs beyond the bucket; credentials come from the default AWS chain unless given. @public */
export interface S3ClientSettings {
  readonly endpoint?: string;
  readonly region?: string;
  readonly forcePathStyle?: boolean;
  readonly credentials?: { readonly accessKeyId: string; readonly secretAccessKey: string };
}

/** Builds the client with SDK retries off, so every retry is ours and counted. @internal */
export const createS3Client = (sdk: S3Module, settings: S3ClientSettings): S3Client =>
  new sdk.S3Client({
    region: settings.region ?? process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION ?? 'us-east-1',
    endpoint: settings.endpoint,
    forcePathStyle: settings.forcePathStyle ?? settings.endpoint !== undefined,
    credentials: settings.credentials,
    maxAttempts: 1,
  });
