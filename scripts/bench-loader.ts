/**
 * Loader throughput against the PyTorch peer on the same Stage 3 files, and peak RSS of streaming passes over two
 * dataset sizes.
 *
 *   pnpm bench:loader [-- --files 16 --rows 1024 --batch 256 --batches 200 --repeats 5 --workers 0,1,2 --rss-files 32,128
 *                        --peer-batches 20 --peer-warmup 3 --skip-peer]
 *
 * The peer trains `peer-warmup + peer-batches` steps before it times its loader, so its runs dominate the wall time.
 *
 * Data: maou-format `.feather` files (IPC File, LZ4 frame, large_list columns) written by pyarrow, with a sparse
 * policy label per row. Ours is measured from the built packages (run `pnpm build` first; the script's package
 * script does), so loader workers start from compiled JavaScript as in production. The peer's figure is its
 * `loader_samples_per_s` (map-style torch DataLoader over rows it loaded into memory before timing). We report our
 * map-style `memory` mode (the same setting: rows in memory before timing) and our default streaming mode (which
 * also decodes the files inside the timed window).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
// Types only: the code is required below, once the metadata polyfill is loaded.
import type * as AppApi from '@maou/bench-use-cases';
import type * as InfraApi from '@maou/bench-infra';

const repo = path.resolve(__dirname, '..');
const arg = (name: string, fallback: string): string => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? process.argv[at + 1]! : fallback;
};
// The app package's use cases carry tsyringe decorators, which need the metadata polyfill loaded first.
createRequire(path.join(repo, 'packages/app/package.json'))('reflect-metadata');
/* eslint-disable @typescript-eslint/no-require-imports */
const infra = require('@maou/bench-infra') as typeof InfraApi;
const app = require('@maou/bench-use-cases') as typeof AppApi;
/* eslint-enable @typescript-eslint/no-require-imports */

const PYGEN = `
import sys, numpy as np, pyarrow as pa, pyarrow.ipc as ipc
out, files, rows, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
g = np.random.default_rng(seed)
for f in range(files):
    board = g.integers(0, 29, (rows, 81), dtype=np.uint8)
    hand = g.integers(0, 3, (rows, 14), dtype=np.uint8)
    label = np.zeros((rows, 1496), np.float32)
    label[np.arange(rows), g.integers(0, 1496, rows)] = 1
    value = g.choice(np.array([0, 0.5, 1], np.float32), rows)
    def nest(flat, shape):
        arr = pa.array(flat.reshape(-1))
        for n in reversed(shape):
            arr = pa.LargeListArray.from_arrays(pa.array(np.arange(0, len(arr) + 1, n, dtype=np.int64)), arr)
        return arr
    table = pa.table({"id": pa.array(np.arange(rows, dtype=np.uint64)), "boardIdPositions": nest(board, [9, 9]),
        "piecesInHand": nest(hand, [14]), "moveLabel": nest(label, [1496]), "resultValue": pa.array(value)})
    with ipc.new_file(f"{out}/part-{f:04d}.feather", table.schema, options=ipc.IpcWriteOptions(compression="lz4")) as w:
        w.write_table(table)
`;

const ensureData = (files: number, rows: number): string => {
  const dir = path.join(tmpdir(), `maou-bench-loader-${files}x${rows}`);
  if (!existsSync(dir) || readdirSync(dir).filter((f) => f.endsWith('.feather')).length !== files) {
    mkdirSync(dir, { recursive: true });
    execFileSync('python3', ['-c', PYGEN, dir, String(files), String(rows), '7'], { stdio: 'inherit' });
  }
  return dir;
};

const baseConfig = (batch: number, workers: number, streaming: boolean) => ({
  batchSize: batch,
  workers,
  prefetchFactor: 2,
  pinMemory: true,
  persistentWorkers: true,
  streaming,
  shuffle: true,
  testRatio: 0.2,
  cacheMode: streaming ? ('file' as const) : ('memory' as const),
  devicePrefetch: 0,
  seed: 1,
});
const clock = { now: () => performance.now(), wallTime: () => new Date() };
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const ours = async (
  dir: string,
  workers: number,
  streaming: boolean,
  batch: number,
  batches: number,
  repeats: number,
): Promise<number> => {
  const loader = await infra.DataLoaderAdapter.create(
    new infra.LocalFileSourceAdapter(3, [dir]),
    baseConfig(batch, workers, streaming),
  );
  try {
    const runs: number[] = [];
    for (let r = 0; r < repeats; r++)
      runs.push((await app.measureLoader(loader, { batches, warmupBatches: 5, clock })).samplesPerSecond);
    return median(runs);
  } finally {
    await loader.close();
  }
};

const peer = (dir: string, workers: number, batch: number): number => {
  const out = execFileSync(
    'python3',
    [
      path.join(repo, '../shared/peer/torch_peer.py'),
      '--data',
      dir,
      '--batch-size',
      String(batch),
      '--workers',
      String(workers),
      '--threads',
      '2',
      '--batches',
      arg('peer-batches', '20'),
      '--warmup-batches',
      arg('peer-warmup', '3'),
    ],
    { encoding: 'utf8' },
  );
  return (JSON.parse(out.trim().split('\n').at(-1)!) as { loader_samples_per_s: number }).loader_samples_per_s;
};

/** Child mode: one full streaming pass over the training split with 2 workers; prints peak RSS. */
const rssChild = async (dir: string): Promise<void> => {
  const loader = await infra.DataLoaderAdapter.create(
    new infra.LocalFileSourceAdapter(3, [dir]),
    baseConfig(256, 2, true),
  );
  let samples = 0;
  for await (const b of loader.iterate('train', 0)) {
    samples += b.size;
    loader.release(b);
  }
  await loader.close();
  process.stdout.write(JSON.stringify({ samples, maxRssBytes: process.resourceUsage().maxRSS * 1024 }));
};

const main = async (): Promise<void> => {
  if (process.argv.includes('--rss-child')) return rssChild(arg('rss-child', ''));
  const files = Number(arg('files', '16'));
  const rows = Number(arg('rows', '1024'));
  const batch = Number(arg('batch', '256'));
  const batches = Number(arg('batches', '200'));
  const repeats = Number(arg('repeats', '5'));
  const workers = arg('workers', '0,1,2').split(',').map(Number);
  const dir = ensureData(files, rows);
  console.log(
    `Stage 3 data: ${files} files × ${rows} rows (${dir}); batch ${batch}; ours: median of ${repeats} × ${batches} batches after 5 warm-up`,
  );
  console.log(
    'workers | ours map-style memory | ours streaming | torch peer loader | ratio (memory / peer) | ratio (streaming / peer)',
  );
  for (const w of workers) {
    const mem = await ours(dir, w, false, batch, batches, repeats);
    const stream = await ours(dir, w, true, batch, batches, repeats);
    const p = process.argv.includes('--skip-peer') ? NaN : peer(dir, w, batch);
    console.log(
      `${w} | ${mem.toFixed(0)} | ${stream.toFixed(0)} | ${p.toFixed(0)} | ${(mem / p).toFixed(2)}x | ${(stream / p).toFixed(2)}x`,
    );
  }
  console.log(
    '\nPeak RSS of one streaming training pass (2 workers, prefetch 2, batch 256; stream buffers ≈ 2 × (one decoded file + 2 batches)):',
  );
  const bytesPerRow = 81 + 14 + 1496 * 4 + 4;
  const buffers = 2 * (rows * bytesPerRow + 2 * 256 * (81 * 4 + 14 * 4 + 1496 * 4 + 4));
  for (const n of arg('rss-files', '32,128').split(',').map(Number)) {
    const d = ensureData(n, rows);
    const child = spawnSync(process.execPath, ['-r', 'ts-node/register/transpile-only', __filename, '--rss-child', d], {
      encoding: 'utf8',
      cwd: repo,
    });
    if (child.status !== 0) throw new Error(child.stderr);
    const r = JSON.parse(child.stdout) as { samples: number; maxRssBytes: number };
    const data = n * rows * bytesPerRow;
    console.log(
      `${n} files: dataset ${(data / 2 ** 20).toFixed(0)} MiB decoded (${(data / buffers).toFixed(0)}× the stream buffers), ${r.samples} samples read, peak RSS ${(r.maxRssBytes / 2 ** 20).toFixed(0)} MiB`,
    );
  }
};

void main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
