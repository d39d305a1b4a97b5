import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { s3InputFlags, S3RVER_ENV, startS3rverWith } from '@maou/bench-testkit/sources';
import { oneLoaderPoint, runMaou, runMaouAsync } from './run-maou';

const BUCKET = 'maou-e2e';
const dir = mkdtempSync(join(tmpdir(), 'maou-e2e-cloud-'));
const env = { MAOU_BENCH_CACHE: join(dir, 'cache'), ...S3RVER_ENV };

describe('maou reading Stage 3 data from S3 (a local s3rver)', () => {
  let server: Awaited<ReturnType<typeof startS3rverWith>>;
  const cloudFlags = (dataName = 'stage3', cacheDir = join(dir, 'objects')) =>
    s3InputFlags(server.endpoint, BUCKET, dataName, cacheDir);

  beforeAll(async () => {
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
    const files = readdirSync(join(dir, 'gen')).filter((f) => f.endsWith('.feather'));
    server = await startS3rverWith(join(dir, 's3'), BUCKET, [
      ...files.map((f) => ({ key: `runs/stage3/${f}`, file: join(dir, 'gen', f) })),
      // eight objects to sample from, for --seed
      ...Array.from({ length: 8 }, (_, i) => ({
        key: `runs/many/part${i}.feather`,
        file: join(dir, 'gen', files[0]!),
      })),
    ]);
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
        '--threads',
        '1',
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
        ...oneLoaderPoint(3),
        '--output-json',
        out,
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
      const r = await runMaouAsync(
        [
          'utility',
          'benchmark-dataloader',
          ...cloudFlags('many', cache),
          '--sample-ratio',
          '0.25',
          '--seed',
          String(seed),
          '--batch-size',
          '16',
          ...oneLoaderPoint(1),
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

  // The write rule (README "Output files") in the cache: a user who names their data folder as the cache keeps a
  // file of theirs at an object's name; before, the download replaced it.
  it("given --input-local-cache-dir on a folder holding the user's file at an object's name, then exit 1 naming it and the flag, before any download, the file byte-identical", async () => {
    const theirs = join(dir, 'theirs');
    const name = readdirSync(join(dir, 'gen')).filter((f) => f.endsWith('.feather'))[0]!;
    const mine = join(theirs, 'stage3', name);
    mkdirSync(join(theirs, 'stage3'), { recursive: true });
    writeFileSync(mine, 'my own notes, not a download\n');
    const r = await runMaouAsync(
      ['utility', 'benchmark-dataloader', ...cloudFlags('stage3', theirs), ...oneLoaderPoint(1)],
      env,
    );
    // the last line: the AWS SDK may warn first about the Node version
    expect({ code: r.code, line: r.stderr.trimEnd().split('\n').pop() }).toEqual({
      code: 1,
      line: `maou benchmark-dataloader: datasource: ${mine} exists and is not a file cached by maou-bench (its SHA-256 recorded in <name>.sha256 beside it); maou-bench never replaces a file it did not write: move it away or name another path (it is where --input-local-cache-dir ${theirs} keeps s3://${BUCKET}/runs/stage3/${name})`,
    });
    expect(readFileSync(mine, 'utf8')).toBe('my own notes, not a download\n');
    expect(readdirSync(theirs, { recursive: true }).map(String).sort()).toEqual(['stage3', join('stage3', name)]);
  }, 240_000);

  it('given a bucket with no data under the prefix, when benchmark-dataloader runs, then exit 1 naming the location and the flags', async () => {
    const r = await runMaouAsync(
      ['utility', 'benchmark-dataloader', ...cloudFlags('missing'), ...oneLoaderPoint(1)],
      env,
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`no .feather objects under s3://${BUCKET}/runs/missing.*--input-bucket-name`));
  }, 240_000);
});

// An endpoint that accepts connections and never answers: each try waits up to 30 s, five of them; the request's
// budget (--input-request-timeout) ends the wait, and the error says where and how long.
describe('maou against an S3 endpoint that accepts and never answers (a loopback TCP server)', () => {
  let server: Server;
  const sockets: Socket[] = [];
  beforeAll(async () => {
    server = createServer((s) => {
      sockets.push(s);
      s.on('error', () => undefined);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    for (const s of sockets) s.destroy();
    await new Promise((resolve) => server.close(resolve));
  });

  it('given --input-request-timeout 2, when benchmark-training runs, then exit 1 within the deadline naming endpoint, wait and flag', async () => {
    const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const started = Date.now();
    const r = await runMaouAsync(
      [
        'utility',
        'benchmark-training',
        ...s3InputFlags(endpoint, BUCKET, 'stage3', join(dir, 'silent-cache')),
        '--input-request-timeout',
        '2',
        '--log-level',
        'silent',
      ],
      env,
    );
    const elapsed = Date.now() - started;
    expect(r.stderr).toMatch(
      new RegExp(
        `listing s3://${BUCKET}/runs/stage3/: no answer from ${endpoint.replace(/\./g, '\\.')} in 2 s \\(1 try; the limit is --input-request-timeout, default 60 s\\)`,
      ),
    );
    expect(r.code).toBe(1);
    expect(sockets.length).toBeGreaterThan(0);
    // 2 s of waiting plus node's start; before the budget it was 5 tries of 30 s
    expect(elapsed).toBeLessThan(20_000);
  }, 240_000);
});
