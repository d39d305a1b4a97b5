import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateBucketCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { runMaou, runMaouAsync } from './run-maou';

// s3rver ships no types and is CommonJS.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const S3rver = require('s3rver') as new (o: Record<string, unknown>) => {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
};

const BUCKET = 'maou-e2e';
const dir = mkdtempSync(join(tmpdir(), 'maou-e2e-cloud-'));
// s3rver takes these fixed keys; the binary finds them where the AWS SDK looks.
const env = {
  MAOU_BENCH_CACHE: join(dir, 'cache'),
  AWS_ACCESS_KEY_ID: 'S3RVER',
  AWS_SECRET_ACCESS_KEY: 'S3RVER',
  AWS_REGION: 'us-east-1',
};

describe('maou reading Stage 3 data from S3 (a local s3rver)', () => {
  let server: InstanceType<typeof S3rver>;
  let endpoint = '';
  const cloudFlags = () => [
    '--input-s3',
    '--input-endpoint',
    endpoint,
    '--input-bucket-name',
    BUCKET,
    '--input-prefix',
    'runs',
    '--input-data-name',
    'stage3',
    '--input-local-cache-dir',
    join(dir, 'objects'),
  ];

  beforeAll(async () => {
    server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: join(dir, 's3') });
    endpoint = `http://127.0.0.1:${(await server.run()).port}`;
    const made = runMaou(
      [
        'utility',
        'generate-sample-data',
        '--stage',
        '3',
        '--positions',
        '768',
        '--output-dir',
        join(dir, 'gen'),
        '--log-level',
        'silent',
      ],
      env,
    );
    expect(made.code).toBe(0);
    const client = new S3Client({
      endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    });
    await client.send(new CreateBucketCommand({ Bucket: BUCKET }));
    const files = readdirSync(join(dir, 'gen')).filter((f) => f.endsWith('.feather'));
    for (const f of files)
      await client.send(
        new PutObjectCommand({ Bucket: BUCKET, Key: `runs/stage3/${f}`, Body: readFileSync(join(dir, 'gen', f)) }),
      );
    // eight objects to sample from, for --seed
    for (let i = 0; i < 8; i += 1)
      await client.send(
        new PutObjectCommand({
          Bucket: BUCKET,
          Key: `runs/many/part${i}.feather`,
          Body: readFileSync(join(dir, 'gen', files[0]!)),
        }),
      );
    client.destroy();
  }, 240_000);
  afterAll(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('given --input-s3, when benchmark-training runs, then it trains on the downloaded objects and the JSON names the bucket', async () => {
    const out = join(dir, 'train.json');
    const r = await runMaouAsync(
      [
        'utility',
        'benchmark-training',
        ...cloudFlags(),
        '--model-architecture',
        'lite',
        '--batch-size',
        '32',
        '--warmup-batches',
        '1',
        '--max-batches',
        '4',
        '--output-json',
        out,
        '--log-level',
        'silent',
      ],
      env,
    );
    expect(r.stderr).not.toMatch(/Error/);
    expect(r.code).toBe(0);
    const json = JSON.parse(readFileSync(out, 'utf8'));
    expect(JSON.stringify(json.data_load_method.source)).toMatch(new RegExp(`s3://${BUCKET}/runs/stage3`));
    expect(json.environment.threads).toBeGreaterThanOrEqual(1);
  }, 240_000);

  it('given --input-s3, when benchmark-dataloader runs, then it measures the loader over the same objects', async () => {
    const out = join(dir, 'dl.json');
    const r = await runMaouAsync(
      [
        'utility',
        'benchmark-dataloader',
        ...cloudFlags(),
        '--batch-size',
        '32',
        '--num-batches',
        '3',
        '--repeats',
        '1',
        '--workers',
        '0',
        '--consumption-steps',
        '0',
        '--output-json',
        out,
        '--log-level',
        'silent',
      ],
      env,
    );
    expect(r.stderr).not.toMatch(/Error/);
    expect(r.code).toBe(0);
    expect(JSON.parse(readFileSync(out, 'utf8')).all_results).toHaveLength(1);
  }, 240_000);

  it('given --sample-ratio, when the binary runs with --seed 1, 2 and 1 again, then two seeds download different objects and a seed repeats its draw', async () => {
    const downloaded = async (seed: number, run: string): Promise<string[]> => {
      const cache = join(dir, `seeded-${run}`);
      const flags = cloudFlags().map((f) => (f === 'stage3' ? 'many' : f === join(dir, 'objects') ? cache : f));
      const r = await runMaouAsync(
        [
          'utility',
          'benchmark-dataloader',
          ...flags,
          '--sample-ratio',
          '0.25',
          '--seed',
          String(seed),
          '--batch-size',
          '16',
          '--num-batches',
          '1',
          '--repeats',
          '1',
          '--workers',
          '0',
          '--consumption-steps',
          '0',
          '--log-level',
          'silent',
        ],
        env,
      );
      expect(r.code).toBe(0);
      return readdirSync(cache, { recursive: true })
        .map(String)
        .filter((f) => f.endsWith('.feather'))
        .sort();
    };
    const [one, two, oneAgain] = [await downloaded(1, 'a'), await downloaded(2, 'b'), await downloaded(1, 'c')];
    expect(one).toHaveLength(2);
    expect(two).toHaveLength(2);
    expect(two).not.toEqual(one);
    expect(oneAgain).toEqual(one);
  }, 240_000);

  it('given a bucket with no data under the prefix, when benchmark-dataloader runs, then exit 1 naming the location and the flags', async () => {
    const r = await runMaouAsync(
      [
        'utility',
        'benchmark-dataloader',
        ...cloudFlags().map((f) => (f === 'stage3' ? 'missing' : f)),
        '--num-batches',
        '1',
        '--repeats',
        '1',
        '--workers',
        '0',
        '--consumption-steps',
        '0',
        '--log-level',
        'silent',
      ],
      env,
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`no .feather objects under s3://${BUCKET}/runs/missing.*--input-bucket-name`));
  }, 240_000);
});
