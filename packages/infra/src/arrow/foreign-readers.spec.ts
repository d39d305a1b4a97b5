import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type * as Polars from 'nodejs-polars';
import type { HcpeColumns, StageColumns } from '@maou/bench-domain';
import { writeStageShards } from '../sample-data/generate-sample-data';
import { playRandomGames } from '../sample-data/random-games';
import { SAMPLE_MANIFEST } from '../sample-data/sample-manifest';
import { pyarrowOrFail, compressedBodyBuffers, buildSampleRecordsOffThread } from '@maou/bench-testkit/arrow';
import { writeStageFeather, type ArrowWriteOptions } from './feather-writer';
import { writeHcpeFeather } from './hcpe-table-codec';

/**
 * Every writer path of the product, read back whole and equal by the readers of maou's world: pyarrow and Polars
 * (both decode LZ4 with liblz4), and every LZ4 frame in the files checked by the reference `lz4 -t`. Sizes reach past
 * the 4 MiB LZ4 block, where lz4js 0.2.0's blocks broke the format (issue #25).
 */
const dir = mkdtempSync(join(tmpdir(), 'maou-foreign-readers-'));
const needPyarrow = pyarrowOrFail();
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Digests = Record<string, string>;
const sha = (a: ArrayBufferView | string): string =>
  createHash('sha256')
    .update(typeof a === 'string' ? a : new Uint8Array(a.buffer, a.byteOffset, a.byteLength))
    .digest('hex');

/** What a reader must see: the SHA-256 of each column's leaf values (strings joined by newlines). */
const stageDigests = (c: StageColumns, ids: BigUint64Array): Digests => {
  const d: Digests = { id: sha(ids), boardIdPositions: sha(c.boardIdPositions), piecesInHand: sha(c.piecesInHand) };
  if (c.stage === 1) d.reachableSquares = sha(c.reachableSquares);
  if (c.stage === 2) d.legalMovesLabel = sha(c.legalMovesLabel);
  if (c.stage === 3) {
    d.moveLabel = sha(c.moveLabel);
    if (c.moveWinRate) d.moveWinRate = sha(c.moveWinRate);
    if (c.bestMoveWinRate) d.bestMoveWinRate = sha(c.bestMoveWinRate);
    d.resultValue = sha(c.resultValue);
  }
  return d;
};
const hcpeDigests = (c: HcpeColumns): Digests => ({
  hcp: sha(c.hcp),
  eval: sha(c.eval),
  bestMove16: sha(c.bestMove16),
  gameResult: sha(c.gameResult),
  id: sha(c.id.join('\n')),
  partitioningKey: sha(c.partitioningKey),
  ratings: sha(c.ratings),
  endgameStatus: sha(c.endgameStatus.join('\n')),
  moves: sha(c.moves),
});

const PYARROW_DIGESTS = `
import sys, json, hashlib, pyarrow as pa, pyarrow.ipc as ipc
def leaf(a):
    while pa.types.is_list(a.type) or pa.types.is_large_list(a.type) or pa.types.is_fixed_size_list(a.type):
        a = a.flatten()
    return a
def digest(a):
    a = leaf(a)
    t = a.type
    if pa.types.is_binary(t) or pa.types.is_large_binary(t) or pa.types.is_fixed_size_binary(t):
        data = b''.join(a.to_pylist())
    elif pa.types.is_string(t) or pa.types.is_large_string(t):
        data = '\\n'.join(a.to_pylist()).encode()
    elif pa.types.is_date32(t):
        data = a.cast(pa.int32()).to_numpy().tobytes()
    else:
        data = a.to_numpy(zero_copy_only=False).tobytes()
    return hashlib.sha256(data).hexdigest()
out = {}
for path in sys.argv[1:]:
    with open(path, 'rb') as f:
        file_format = f.read(6) == b'ARROW1'
    with pa.memory_map(path) as src:
        table = (ipc.open_file(src) if file_format else ipc.open_stream(src)).read_all()
    table.validate(full=True)
    out[path] = {'rows': table.num_rows, 'columns': {n: digest(table.column(n).combine_chunks()) for n in table.column_names}}
print(json.dumps(out))
`;

/** pyarrow's view of each file: rows and column digests (one python3 process for all files). */
const readWithPyarrow = (paths: readonly string[]): Record<string, { rows: number; columns: Digests }> => {
  const r = spawnSync('python3', ['-c', PYARROW_DIGESTS, ...paths], { encoding: 'utf8', maxBuffer: 16 << 20 });
  if (r.status !== 0) throw new Error(`pyarrow could not read the files: ${r.stderr}`);
  return JSON.parse(r.stdout) as Record<string, { rows: number; columns: Digests }>;
};

/** Polars' view of a file: rows and the digests of its numeric and string columns. */
const readWithPolars = (path: string, format: 'file' | 'stream'): { rows: number; columns: Digests } => {
  // A dev dependency with a native binary, loaded only by the specs that read with Polars.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const pl = require('nodejs-polars') as typeof Polars;
  const bytes = readFileSync(path);
  const df = format === 'file' ? pl.readIPC(bytes) : pl.readIPCStream(bytes);
  const columns: Digests = {};
  for (const name of df.columns) {
    // nodejs-polars cannot hand out Binary values (its dtype getter panics: "not yet implemented"); HCPE's hcp is
    // still decoded by readIPC above, and pyarrow compares its bytes.
    if (name === 'hcp') continue;
    let s = df.getColumn(name);
    while (String(s.dtype).startsWith('DataType(List')) s = s.explode();
    const kind = String(s.dtype);
    if (kind.includes('Binary')) columns[name] = sha(Buffer.concat(s.toArray() as unknown as Buffer[]));
    else if (kind.includes('String') || kind.includes('Utf8'))
      columns[name] = sha((s.toArray() as string[]).join('\n'));
    else if (kind.includes('Date')) columns[name] = sha(s.cast(pl.Int32).toTypedArray());
    else columns[name] = sha(s.toTypedArray() as ArrayBufferView);
  }
  return { rows: df.height, columns };
};

/** Runs the reference `lz4 -t` over every LZ4 frame stored in the files; returns how many it checked. */
const testFramesWithLz4 = async (paths: readonly string[]): Promise<number> => {
  const framesDir = join(dir, `frames-${Math.random().toString(36).slice(2)}`);
  mkdirSync(framesDir);
  const framePaths: string[] = [];
  for (const path of paths) {
    for (const frame of await compressedBodyBuffers(readFileSync(path))) {
      const p = join(framesDir, `${framePaths.length}.lz4`);
      writeFileSync(p, frame);
      framePaths.push(p);
    }
  }
  if (framePaths.length === 0) return 0;
  const r = spawnSync('lz4', ['-t', '-m', ...framePaths], { encoding: 'utf8' });
  if (r.status !== 0 || /Error/.test(r.stderr)) throw new Error(`lz4 -t rejected a frame: ${r.stderr}`);
  return framePaths.length;
};

interface Written {
  readonly path: string;
  readonly format: 'file' | 'stream';
  readonly lz4: boolean;
  readonly expected: { rows: number; columns: Digests };
}

/** Checks a set of written files against pyarrow, Polars and `lz4 -t`. */
const checkAll = async (files: readonly Written[]): Promise<void> => {
  needPyarrow();
  const py = readWithPyarrow(files.map((f) => f.path));
  for (const f of files) {
    expect({ path: f.path, ...py[f.path] }).toEqual({ path: f.path, ...f.expected });
    const { hcp: _binary, ...polarsExpected } = f.expected.columns;
    expect({ path: f.path, ...readWithPolars(f.path, f.format) }).toEqual({
      path: f.path,
      rows: f.expected.rows,
      columns: polarsExpected,
    });
  }
  const lz4Files = files.filter((f) => f.lz4).map((f) => f.path);
  if (lz4Files.length) expect(await testFramesWithLz4(lz4Files)).toBeGreaterThan(0);
};

// Rows that put each stage's largest buffer past one 4 MiB LZ4 block: Stage 1 81 B/row, Stage 2 1,496, Stage 3 5,984.
// Stage 2 is `generate-sample-data --stage 2 --positions 4000 --seed 777`, whose file pyarrow could not read.
const STAGES = [
  { stage: 1 as const, positions: 56_000, seed: 0 },
  { stage: 2 as const, positions: 4000, seed: 777 },
  { stage: 3 as const, positions: 800, seed: 777 },
];

describe('files we write, read back by pyarrow and Polars, their LZ4 frames passing lz4 -t (#25)', () => {
  it.each(STAGES)(
    'given Stage $stage sample data ($positions positions) written as generate-sample-data, benchmark-io and the cloud cache write it, then every reader sees every row',
    async ({ stage, positions, seed }) => {
      const records = await buildSampleRecordsOffThread(stage, positions, seed);
      expect(records.columns.rows).toBe(positions);
      const written: Written[] = [];
      // generate-sample-data: IPC File, one batch per file; default rows per file (buffers past 4 MiB) and tiny files.
      for (const compression of ['lz4', 'none'] as const) {
        const out = join(dir, `s${stage}-${compression}`);
        const files = await writeStageShards(records, out, Number.MAX_SAFE_INTEGER, compression);
        for (const f of files)
          written.push({
            path: f.path,
            format: 'file',
            lz4: compression === 'lz4',
            expected: { rows: positions, columns: stageDigests(records.columns, records.ids) },
          });
      }
      const tiny = sliceRows(records, 0, 5);
      const tinyFiles = await writeStageShards(tiny, join(dir, `s${stage}-tiny`), 2, 'lz4');
      // Three shards and the manifest that names them (the files this product may later replace).
      expect(readdirSync(join(dir, `s${stage}-tiny`)).sort()).toEqual(
        [SAMPLE_MANIFEST, ...tinyFiles.map((f) => basename(f.path))].sort(),
      );
      tinyFiles.forEach((f, k) => {
        const part = sliceRows(tiny, k * 2, f.rows);
        written.push({
          path: f.path,
          format: 'file',
          lz4: true,
          expected: { rows: f.rows, columns: stageDigests(part.columns, part.ids) },
        });
      });
      // benchmark-io's arrow-stream and feather formats, and several record batches per file.
      const variants: [string, ArrowWriteOptions][] = [
        ['stream-lz4.arrows', { format: 'stream', compression: 'lz4' }],
        ['stream-none.arrows', { format: 'stream', compression: 'none' }],
        ['file-lz4-batches.feather', { format: 'file', compression: 'lz4', batchRows: Math.ceil(positions / 3) }],
        ['stream-lz4-batches.arrows', { format: 'stream', compression: 'lz4', batchRows: Math.ceil(positions / 3) }],
      ];
      for (const [name, options] of variants) {
        const path = join(dir, `s${stage}-${name}`);
        await writeStageFeather(path, records.columns, records.ids, options);
        written.push({
          path,
          format: options.format ?? 'file',
          lz4: options.compression === 'lz4',
          expected: { rows: positions, columns: stageDigests(records.columns, records.ids) },
        });
      }
      await checkAll(written);
    },
    240_000,
  );

  it('given HCPE games written as IPC File and Stream, LZ4 and uncompressed, then every reader sees every row', async () => {
    const hcpe = playRandomGames({ seed: 5, uniquePositions: 300 });
    const written: Written[] = [];
    for (const [name, options] of [
      ['hcpe-lz4.feather', { format: 'file', compression: 'lz4' }],
      ['hcpe-none.feather', { format: 'file', compression: 'none' }],
      ['hcpe-lz4.arrows', { format: 'stream', compression: 'lz4', batchRows: 100 }],
    ] as [string, ArrowWriteOptions][]) {
      const path = join(dir, name);
      await writeHcpeFeather(path, hcpe, options);
      written.push({
        path,
        format: options.format ?? 'file',
        lz4: options.compression === 'lz4',
        expected: { rows: hcpe.rows, columns: hcpeDigests(hcpe) },
      });
    }
    await checkAll(written);
  }, 120_000);
});

/** Rows [start, start + rows) of stage records, as views. */
function sliceRows(records: { columns: StageColumns; ids: BigUint64Array }, start: number, rows: number) {
  const c = records.columns;
  const cut = <T extends Uint8Array | Float32Array>(a: T, per: number): T =>
    a.subarray(start * per, (start + rows) * per) as T;
  const base = { rows, boardIdPositions: cut(c.boardIdPositions, 81), piecesInHand: cut(c.piecesInHand, 14) };
  const columns: StageColumns =
    c.stage === 1
      ? { ...base, stage: 1, reachableSquares: cut(c.reachableSquares, 81) }
      : c.stage === 2
        ? { ...base, stage: 2, legalMovesLabel: cut(c.legalMovesLabel, 1496) }
        : {
            ...base,
            stage: 3,
            moveLabel: cut(c.moveLabel, 1496),
            resultValue: cut(c.resultValue, 1),
            ...(c.moveWinRate ? { moveWinRate: cut(c.moveWinRate, 1496) } : {}),
            ...(c.bestMoveWinRate ? { bestMoveWinRate: cut(c.bestMoveWinRate, 1) } : {}),
          };
  return { columns, ids: records.ids.subarray(start, start + rows) };
}
