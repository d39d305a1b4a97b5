import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Footer } from 'apache-arrow/ipc/metadata/file';
import type { Stage, StageColumns } from '@maou/bench-domain';
import { inspectStageFile } from '../sources/local/inspect-stage-file';
import { readStageFile } from '../sources/local/read-stage-file';
import { seededRandom } from '../sample-data/seeded-random';
import { pyarrowOrFail, toArrowRsLayout, writeWithPolars, writeWithPyarrow } from '@maou/bench-testkit/arrow';
import { writeStageFeather } from './feather-writer';
import { readIpcFileLayout } from './ipc-layout';

const ROWS = 300;

/** Rows of every stage with values across maou's legal ranges (board IDs up to 80, as maou's I/O benchmark writes). */
export const stageRows = (stage: Stage, rows: number, seed = stage): StageColumns => {
  const random = seededRandom(seed);
  const bytes = (n: number, hi: number): Uint8Array =>
    Uint8Array.from({ length: n }, () => Math.floor(random() * (hi + 1)));
  const base = { rows, boardIdPositions: bytes(rows * 81, 80), piecesInHand: bytes(rows * 14, 18) };
  if (stage === 1) return { ...base, stage, reachableSquares: bytes(rows * 81, 1) };
  if (stage === 2) return { ...base, stage, legalMovesLabel: bytes(rows * 1496, 1) };
  const moveLabel = new Float32Array(rows * 1496);
  for (let r = 0; r < rows; r++) moveLabel[r * 1496 + Math.floor(random() * 1496)] = 1;
  return {
    ...base,
    stage,
    moveLabel,
    resultValue: Float32Array.from({ length: rows }, () => Math.floor(random() * 3) / 2),
  };
};

const dir = mkdtempSync(join(tmpdir(), 'maou-layouts-'));
const ids = BigUint64Array.from({ length: ROWS }, (_, i) => BigInt(i + 1));

/** Our own uncompressed IPC File of the rows: the source every other writer rewrites. */
const source = async (stage: Stage): Promise<{ path: string; columns: StageColumns }> => {
  const columns = stageRows(stage, ROWS);
  // A folder of its own per call: the writer replaces only files it wrote, and two cases read the same stage.
  const path = join(mkdtempSync(join(dir, 'source-')), `source-stage${stage}.feather`);
  await writeStageFeather(path, columns, ids);
  return { path, columns };
};

/** Lists the file as local listing does (footer/headers only), then decodes it; both must give the source rows. */
const expectRows = async (path: string, stage: Stage, expected: StageColumns): Promise<void> => {
  const summary = await inspectStageFile(path, stage);
  expect(summary.rows).toBe(ROWS);
  expect(await readStageFile(path, stage)).toEqual(expected);
};

const STAGES: Stage[] = [1, 2, 3];

describe.each(STAGES)("Stage %i files from every writer in maou's world decode to the same rows", (stage) => {
  let src: { path: string; columns: StageColumns };
  beforeAll(async () => {
    src = await source(stage);
  });

  it.each([
    ['file', 'lz4'],
    ['file', 'zstd'],
    ['file', 'uncompressed'],
    ['stream', 'lz4'],
    ['stream', 'zstd'],
  ] as const)(
    'Polars (nodejs-polars, Rust writer): IPC %s, %s, record batches of 70 rows',
    async (format, compression) => {
      const path = join(dir, `polars-${stage}-${format}-${compression}.${format === 'file' ? 'feather' : 'arrows'}`);
      writeWithPolars(readFileSync(src.path), path, { format, compression, batchRows: 70 });
      await expectRows(path, stage, src.columns);
    },
  );

  it.each([['lz4'], ['none']] as const)(
    'arrow-rs FileWriter layout (magic padded to byte 64, 64-byte framing), %s bodies',
    async (compression) => {
      const ours = join(dir, `ours-${stage}-${compression}.feather`);
      await writeStageFeather(ours, src.columns, ids, { compression, batchRows: 128 });
      const path = join(dir, `arrow-rs-${stage}-${compression}.feather`);
      const bytes = toArrowRsLayout(readFileSync(ours));
      expect(Buffer.from(bytes.subarray(0, 64)).toString('latin1')).toBe(`ARROW1${'\0'.repeat(58)}`);
      writeFileSync(path, bytes);
      await expectRows(path, stage, src.columns);
    },
  );

  it.each([
    ['file', 'lz4'],
    ['stream', 'none'],
  ] as const)('arrow-js (ours): IPC %s, %s, many record batches', async (format, compression) => {
    const path = join(dir, `ours-${stage}-${format}-${compression}.feather`);
    await writeStageFeather(path, src.columns, ids, { format, compression, batchRows: 17 });
    await expectRows(path, stage, src.columns);
  });

  const pyarrow = pyarrowOrFail();
  it.each([
    ['file', 'lz4', 'large_list'],
    ['file', 'zstd', 'list'],
    ['file', 'none', 'fixed_size_list'],
    ['stream', 'lz4', 'fixed_size_list'],
    ['stream', 'zstd', 'large_list'],
    ['stream', 'none', 'list'],
  ] as const)(
    'pyarrow: IPC %s, %s, %s, record batches of 64 rows, extra columns',
    async (format, compression, listType) => {
      pyarrow();
      const path = join(dir, `pyarrow-${stage}-${format}-${compression}-${listType}.feather`);
      writeWithPyarrow(src.path, path, { format, compression, listType, batchRows: 64, extraColumns: stage === 3 });
      // HEAD's win-rate columns are read along (the writer fills them with 0.5 and 0.25).
      const c = src.columns;
      const withRates: StageColumns =
        c.stage === 3
          ? {
              ...c,
              moveWinRate: new Float32Array(c.rows * 1496).fill(0.5),
              bestMoveWinRate: new Float32Array(c.rows).fill(0.25),
            }
          : c;
      await expectRows(path, stage, withRates);
    },
  );

  it('pyarrow LZ4 rewritten into the arrow-rs layout', async () => {
    pyarrow();
    const py = join(dir, `pyarrow-${stage}-for-rs.feather`);
    writeWithPyarrow(src.path, py, { format: 'file', compression: 'lz4', listType: 'large_list', batchRows: 100 });
    const path = join(dir, `pyarrow-rs-${stage}.feather`);
    writeFileSync(path, toArrowRsLayout(readFileSync(py)));
    await expectRows(path, stage, src.columns);
  });
});

describe('counting rows reads footers and headers only', () => {
  it('given a Polars LZ4 file of many batches, when its layout is read, then only metadata bytes are read', async () => {
    const src = await source(3);
    const path = join(dir, 'count.feather');
    writeWithPolars(readFileSync(src.path), path, { format: 'file', compression: 'lz4', batchRows: 10 });
    const layout = await readIpcFileLayout(path);
    expect(layout.rows).toBe(ROWS);
    expect(layout.batches).toHaveLength(30);
    // The first 8 bytes, the trailer, the footer and each block's framed header, as Polars' footer lists them: no body.
    const bytes = readFileSync(path);
    const footerLength = bytes.readInt32LE(bytes.length - 10);
    const footer = Footer.decode(bytes.subarray(bytes.length - 10 - footerLength, bytes.length - 10));
    const headers = [...footer.recordBatches()].reduce((n, b) => n + b.metaDataLength, 0);
    expect(layout.bytesRead).toBe(8 + 10 + footerLength + headers);
    expect(layout.bytesRead).toBeLessThan(layout.size / 4);
  });
});
