import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';

/** Path of the built binary; e2e tests never import sources. */
export const MAOU_BIN = join(__dirname, '..', '..', 'cli', 'dist', 'main.js');

/** Runs `maou` with args and returns exit code and both streams. */
export const runMaou = (args: readonly string[], env: Record<string, string> = {}, timeoutMs = 240_000) => {
  const r = spawnSync(process.execPath, [MAOU_BIN, ...args], {
    encoding: 'utf8',
    env: { ...process.env, ...env },
    timeout: timeoutMs,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
};

/** As `runMaou`, without blocking this process (for tests that serve the binary from here, e.g. a local S3). */
export const runMaouAsync = (
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> =>
  new Promise((resolve) => {
    const child = spawn(process.execPath, [MAOU_BIN, ...args], { env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });

/** The fixed keys s3rver takes, where the AWS SDK in the binary looks for them. */
export const S3RVER_ENV = { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER', AWS_REGION: 'us-east-1' };

/**
 * The testkit's s3rver harness on loopback, storing under `directory`, with `bucket` holding `objects`. It loads here,
 * not with this module, which every e2e spec imports.
 */
export const startLocalS3 = async (
  directory: string,
  bucket: string,
  objects: readonly { readonly key: string; readonly file: string }[],
): Promise<{ readonly endpoint: string; close(): Promise<void> }> => {
  const { startS3rver } = await import('@maou/bench-testkit/sources');
  const s3 = await startS3rver(bucket, directory);
  for (const { key, file } of objects) await s3.putFile(key, file);
  return s3;
};

/** The flags that point the binary at `s3://bucket/runs/<dataName>` on a local S3, downloading into `cacheDir`. */
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

/** benchmark-dataloader's flags for one quick point: the loader alone (no model), no workers, one repeat, quiet. */
export const oneLoaderPoint = (numBatches: number): string[] => [
  '--num-batches',
  String(numBatches),
  '--repeats',
  '1',
  '--workers',
  '0',
  '--consumption-steps',
  '0',
  '--log-level',
  'silent',
];
