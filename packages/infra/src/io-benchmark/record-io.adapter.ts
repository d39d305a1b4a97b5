import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IoRecords, RecordFileFormat, RecordIoPort } from '@maou/bench-use-cases';
import type { Stage, StageColumns } from '@maou/bench-domain';
import { writeStageFeather } from '../arrow/feather-writer';
import { readStageFile } from '../sources/local/read-stage-file';
import { writeStageNpy } from '../npy/npy-stage-writer';
import { FileError, fileError } from '../files/file-error';
import { buildSampleRecords } from '../sample-data/generate-sample-data';

const payloadBytes = (c: StageColumns): number =>
  c.boardIdPositions.byteLength +
  c.piecesInHand.byteLength +
  (c.stage === 1
    ? c.reachableSquares.byteLength
    : c.stage === 2
      ? c.legalMovesLabel.byteLength
      : c.moveLabel.byteLength + c.resultValue.byteLength);

// benchmark-io writes only under TMPDIR: a write that fails there says so, and how to point it elsewhere.
const underTmpdir = (e: unknown, path: string): FileError => {
  const f = fileError(e, path);
  return new FileError(
    path,
    f.code,
    `${f.reason} (benchmark-io writes its files under TMPDIR=${tmpdir()}; set TMPDIR to a directory with room)`,
  );
};

const written = <T>(path: string, write: Promise<T>): Promise<T> =>
  write.catch((e: unknown) => {
    throw underTmpdir(e, path);
  });

const arrow = (
  name: string,
  suffix: string,
  format: 'file' | 'stream',
  compression: 'lz4' | 'none',
): RecordFileFormat => ({
  name,
  compression,
  suffix,
  write: (r, path) => written(path, writeStageFeather(path, r.columns, r.ids, { format, compression })),
  read: async (path, stage) => (await readStageFile(path, stage)).rows,
});

/**
 * The formats maou uses: Arrow IPC File (`.feather`, LZ4 as maou writes it, or uncompressed), Arrow IPC Stream,
 * and numpy structured records (`.npy`, float16 targets). ZSTD is read-only here (no JS encoder), so not benchmarked.
 * @public
 */
export class RecordIoAdapter implements RecordIoPort {
  formats(): readonly RecordFileFormat[] {
    return [
      arrow('feather', '.feather', 'file', 'lz4'),
      arrow('feather', '.feather', 'file', 'none'),
      arrow('arrow-stream', '.arrows', 'stream', 'lz4'),
      {
        name: 'npy',
        compression: 'none',
        suffix: '.npy',
        write: (r, path) => written(path, writeStageNpy(path, r.columns, r.ids)),
        read: async (path, stage) => (await readStageFile(path, stage)).rows,
      },
    ];
  }

  async sampleRecords(
    stage: Stage,
    rows: number,
    seed: number,
    onProgress: (done: number, total: number, phase: string) => void,
  ): Promise<IoRecords> {
    const { columns, ids } = buildSampleRecords(stage, rows, seed, onProgress);
    return { columns, ids, payloadBytes: payloadBytes(columns) };
  }

  async scratchDir(): Promise<string> {
    const parent = tmpdir();
    try {
      return await mkdtemp(join(parent, 'maou-benchmark-io-'));
    } catch (e) {
      throw new FileError(
        parent,
        fileError(e, parent).code,
        `${fileError(e, parent).reason}; benchmark-io makes its scratch directory in TMPDIR (${process.env.TMPDIR === undefined ? 'unset, so the system default' : `TMPDIR=${process.env.TMPDIR}`}): set TMPDIR to an existing, writable directory`,
        'cannot create a directory in',
      );
    }
  }

  removeDir(dir: string): Promise<void> {
    return rm(dir, { recursive: true, force: true });
  }
}
