import { mkdtemp, readFile, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';

interface S3rverInstance {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
}
type S3rverCtor = new (options: Record<string, unknown>) => S3rverInstance;

/** s3rver accepts these fixed keys; nothing real. */
export const S3RVER_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

/** A real S3-compatible server (s3rver) on 127.0.0.1 with one bucket, and a way to upload into it. */
export interface S3rverHarness {
  readonly address: AddressInfo;
  readonly endpoint: string;
  put(key: string, body: Uint8Array): Promise<void>;
  putFile(key: string, path: string): Promise<void>;
  close(): Promise<void>;
}

/** Stores under `directory` when given (left for its owner to remove), else under a temporary one removed on close. */
export const startS3rver = async (bucket: string, storeIn?: string): Promise<S3rverHarness> => {
  const directory = storeIn ?? (await mkdtemp(join(tmpdir(), 's3rver-')));
  // s3rver ships no types and is CommonJS.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const S3rver = require('s3rver') as S3rverCtor;
  const server = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  const address = await server.run();
  const endpoint = `http://127.0.0.1:${address.port}`;
  const client = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials: S3RVER_CREDENTIALS });
  const put = async (key: string, body: Uint8Array): Promise<void> => {
    await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body }));
  };
  return {
    address,
    endpoint,
    put,
    putFile: async (key, path) => put(key, await readFile(path)),
    close: async () => {
      client.destroy();
      await server.close();
      if (storeIn === undefined) await rm(directory, { recursive: true, force: true });
    },
  };
};

/** The same keys where the AWS SDK in a spawned `maou` looks for them. */
export const S3RVER_ENV = {
  AWS_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId,
  AWS_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey,
  AWS_REGION: 'us-east-1',
};

/** An s3rver under `directory` whose `bucket` holds `objects` (each a local file uploaded under its key). */
export const startS3rverWith = async (
  directory: string,
  bucket: string,
  objects: readonly { readonly key: string; readonly file: string }[],
): Promise<S3rverHarness> => {
  const s3 = await startS3rver(bucket, directory);
  for (const { key, file } of objects) await s3.putFile(key, file);
  return s3;
};

/** The flags that point `maou` at `s3://bucket/runs/<dataName>` on a local S3, downloading into `cacheDir`. */
export const s3InputFlags = (endpoint: string, bucket: string, dataName: string, cacheDir: string): string[] => [
  '--input-s3',
  '--input-endpoint',
  endpoint,
  '--input-bucket-name',
  bucket,
  '--input-prefix',
  'runs',
  '--input-data-name',
  dataName,
  '--input-local-cache-dir',
  cacheDir,
];
