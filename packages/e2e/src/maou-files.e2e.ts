import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// Test fixtures only: files laid out as Polars and arrow-rs write them (the binary under test is still only run).
import { FIXTURES_DIR, toArrowRsLayout, writeWithPolars, writeWithPyarrow } from '@maou/bench-testkit/arrow';
import { s3InputFlags, S3RVER_ENV, startS3rverWith } from '@maou/bench-testkit/sources';
import { oneLoaderPoint, runMaou, runMaouAsync } from './run-maou';

const BUCKET = 'maou-files';
const dir = mkdtempSync(join(tmpdir(), 'maou-e2e-files-'));
const env = { MAOU_BENCH_CACHE: join(dir, 'cache'), ...S3RVER_ENV };
// The files are under test, not data-parallel training: one backend thread, no replica workers to start per run.
const RUN = [
  '--threads',
  '1',
  '--batch-size',
  '16',
  '--warmup-batches',
  '1',
  '--max-batches',
  '3',
  '--model-architecture',
  'lite',
  '--log-level',
  'silent',
];
const LAYOUTS = ['polars', 'arrow-rs'] as const;
// pyarrow (ZSTD, 32-bit list columns) joins them for Stage 3 locally and from S3; CI installs it (setup-system.sh).
const STAGE3_LAYOUTS = [...LAYOUTS, 'pyarrow'] as const;
type Layout = (typeof STAGE3_LAYOUTS)[number];

/** Stage N sample data from the binary, in two files, rewritten as `layout` lays them out. */
const makeLayout = (stage: 1 | 2 | 3, layout: Layout): string => {
  const gen = join(dir, `gen${stage}`);
  if (!readdirSafe(gen).length)
    expect(
      runMaou(
        [
          'utility',
          'generate-sample-data',
          '--stage',
          String(stage),
          '--positions',
          '320',
          '--rows-per-file',
          '160',
          '--output-dir',
          gen,
          '--log-level',
          'silent',
        ],
        env,
      ).code,
    ).toBe(0);
  const out = join(dir, `${layout}${stage}`);
  mkdirSync(out, { recursive: true });
  for (const f of readdirSafe(gen).filter((n) => n.endsWith('.feather'))) {
    if (layout === 'polars')
      writeWithPolars(readFileSync(join(gen, f)), join(out, f), { format: 'file', compression: 'lz4', batchRows: 50 });
    else if (layout === 'pyarrow')
      writeWithPyarrow(join(gen, f), join(out, f), {
        format: 'file',
        compression: 'zstd',
        listType: 'list',
        batchRows: 40,
      });
    else writeFileSync(join(out, f), toArrowRsLayout(readFileSync(join(gen, f))));
  }
  return out;
};
const readdirSafe = (d: string): string[] => {
  try {
    return readdirSync(d).sort();
  } catch {
    return [];
  }
};

const losses = (path: string): number[] =>
  (JSON.parse(readFileSync(path, 'utf8')).batches as { loss: number }[]).map((b) => b.loss);

describe('maou files from Polars, arrow-rs and pyarrow train through the binary, locally and from S3', () => {
  let server: Awaited<ReturnType<typeof startS3rverWith>>;
  const local: Record<string, string> = {};

  beforeAll(async () => {
    for (const layout of STAGE3_LAYOUTS) local[layout] = makeLayout(3, layout);
    server = await startS3rverWith(
      join(dir, 's3'),
      BUCKET,
      STAGE3_LAYOUTS.flatMap((layout) =>
        readdirSafe(local[layout]!).map((f) => ({ key: `runs/${layout}/${f}`, file: join(local[layout]!, f) })),
      ),
    );
  }, 240_000);
  afterAll(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const s3Flags = (layout: Layout) => s3InputFlags(server.endpoint, BUCKET, layout, join(dir, `objects-${layout}`));
  /** Trains on the given flags; the losses, after checking the run succeeded. */
  const train = async (name: string, flags: string[]): Promise<number[]> => {
    const out = join(dir, `${name}.json`);
    const r = await runMaouAsync(['utility', 'benchmark-training', ...flags, ...RUN, '--output-json', out], env);
    expect({ name, code: r.code, stderr: r.stderr }).toEqual({
      name,
      code: 0,
      stderr: expect.not.stringMatching(/Error|0 batch/),
    });
    return losses(out);
  };
  // The arrow-js files every layout was rewritten from, map-style: one run serves all three layouts.
  let sourceRun: Promise<number[]> | undefined;
  const sourceLosses = () =>
    (sourceRun ??= train('source', ['--stage3-data-path', join(dir, 'gen3'), '--no-streaming']));

  // Cloud sources are map-style (as in maou), so S3 runs are compared with local map-style runs; the rows written by
  // arrow-js (the files before Polars or the arrow-rs layout touched them) must give the same losses again.
  it.each(STAGE3_LAYOUTS)(
    'given %s Stage 3 files, when benchmark-training reads them locally (streaming and map-style) and from S3, then map-style and S3 train with identical losses',
    async (layout) => {
      const runs: Record<string, string[]> = {
        streaming: ['--stage3-data-path', local[layout]!],
        map: ['--stage3-data-path', local[layout]!, '--no-streaming'],
        s3: s3Flags(layout),
      };
      const seen: Record<string, number[]> = {};
      for (const [name, flags] of Object.entries(runs)) seen[name] = await train(`${layout}-${name}`, flags);
      seen.source = await sourceLosses();
      expect(seen.streaming).toHaveLength(3);
      expect(seen.streaming!.every(Number.isFinite)).toBe(true);
      expect(seen.map).toHaveLength(3);
      expect(seen.s3).toEqual(seen.map);
      expect(seen.source).toEqual(seen.map);
    },
    300_000,
  );

  it.each(LAYOUTS)(
    'given %s Stage 3 files, when benchmark-dataloader reads them with --input-file-packed, locally and from S3, then it measures the loader',
    async (layout) => {
      for (const flags of [['--stage3-data-path', local[layout]!, '--input-file-packed'], s3Flags(layout)]) {
        const out = join(dir, `dl-${layout}.json`);
        const r = await runMaouAsync(
          [
            'utility',
            'benchmark-dataloader',
            ...flags,
            '--batch-size',
            '16',
            ...oneLoaderPoint(3),
            '--output-json',
            out,
          ],
          env,
        );
        expect({ code: r.code, stderr: r.stderr }).toEqual({
          code: 0,
          stderr: expect.not.stringMatching(/Error|0 samples/),
        });
        expect(JSON.parse(readFileSync(out, 'utf8')).all_results).toHaveLength(1);
      }
    },
    300_000,
  );

  it.each([
    [1, 'polars'],
    [2, 'arrow-rs'],
    [1, 'arrow-rs'],
    [2, 'polars'],
  ] as const)(
    'given Stage %i files laid out by %s, when benchmark-training reads them, then it trains',
    async (stage, layout) => {
      const path = makeLayout(stage, layout);
      const out = join(dir, `stage${stage}-${layout}.json`);
      const r = await runMaouAsync(
        [
          'utility',
          'benchmark-training',
          '--stage',
          String(stage),
          `--stage${stage}-data-path`,
          path,
          ...RUN,
          '--output-json',
          out,
        ],
        env,
      );
      expect({ code: r.code, stderr: r.stderr }).toEqual({
        code: 0,
        stderr: expect.not.stringMatching(/Error|0 batch/),
      });
      expect(losses(out).every(Number.isFinite)).toBe(true);
    },
    300_000,
  );

  it('given an HCPE file, when benchmark-training is pointed at it, then exit 1 says it holds raw game records and what to run', () => {
    const path = join(dir, 'games.feather');
    copyFileSync(join(FIXTURES_DIR, 'hcpe.polars.lz4.feather'), path);
    const r = runMaou(['utility', 'benchmark-training', '--stage3-data-path', path, ...RUN], env);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /games\.feather: Arrow IPC File holds HCPE rows \(raw game records.*maou pre-process --input-path/,
    );
  });
});
