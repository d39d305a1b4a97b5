import { appendFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { DataSourcePort, ShardRef, SourceIoStats } from '@maou/bench-use-cases';
import {
  type HostBatch,
  BOARD_SQUARES,
  HAND_KINDS,
  MOVE_LABELS,
  type Stage,
  type Stage3Columns,
  type StageColumns,
} from '@maou/bench-domain';

// Test-only stand-in for the Arrow reader: a 12-byte header (magic, stage, rows) then the Stage 3 columns raw.
const MAGIC = 0x4d414f55;

/** Stage 3 rows whose first three board squares spell the row's global id in base 29 (valid piece ids). @internal */
export const stage3Rows = (firstId: number, rows: number): Stage3Columns => {
  const moveLabel = new Float32Array(rows * MOVE_LABELS);
  const resultValue = new Float32Array(rows);
  const boardIdPositions = new Uint8Array(rows * BOARD_SQUARES);
  const piecesInHand = new Uint8Array(rows * HAND_KINDS);
  for (let r = 0; r < rows; r++) {
    const id = firstId + r;
    resultValue[r] = (id % 3) / 2;
    moveLabel[r * MOVE_LABELS + (id % MOVE_LABELS)] = 1;
    boardIdPositions.set([id % 29, Math.floor(id / 29) % 29, Math.floor(id / 841) % 29], r * BOARD_SQUARES);
    piecesInHand.fill(id % 3, r * HAND_KINDS, (r + 1) * HAND_KINDS);
  }
  return { stage: 3, rows, boardIdPositions, piecesInHand, moveLabel, resultValue };
};

/** The ids of a batch built from `stage3Rows`. @internal */
export const batchRowIds = (b: HostBatch): number[] =>
  Array.from(
    { length: b.size },
    (_, r) => b.boardIds[r * 81]! + 29 * b.boardIds[r * 81 + 1]! + 841 * b.boardIds[r * 81 + 2]!,
  );

/** Writes columns to `path` in the raw test format. @internal */
export const writeRawStage3 = async (path: string, c: Stage3Columns): Promise<void> => {
  const header = new Uint32Array([MAGIC, 3, c.rows]);
  const parts = [header, c.boardIdPositions, c.piecesInHand, c.moveLabel, c.resultValue];
  await writeFile(path, Buffer.concat(parts.map((p) => Buffer.from(p.buffer, p.byteOffset, p.byteLength))));
};

/** Reads a raw test file back; a wrong magic is an error naming the file. @internal */
export const readRawStageFile = async (path: string, stage: Stage): Promise<StageColumns> => {
  const buf = await readFile(path);
  const header = new Uint32Array(buf.buffer.slice(buf.byteOffset, buf.byteOffset + 12));
  if (header[0] !== MAGIC || header[1] !== stage) throw new Error(`${path}: not a raw stage ${stage} test file`);
  const rows = header[2]!;
  let at = buf.byteOffset + 12;
  const take = (bytes: number): ArrayBuffer => buf.buffer.slice(at, (at += bytes));
  const boardIdPositions = new Uint8Array(take(rows * BOARD_SQUARES));
  const piecesInHand = new Uint8Array(take(rows * HAND_KINDS));
  const moveLabel = new Float32Array(take(rows * MOVE_LABELS * 4));
  const resultValue = new Float32Array(take(rows * 4));
  return { stage: 3, rows, boardIdPositions, piecesInHand, moveLabel, resultValue };
};

/** A source over raw test files. @internal */
export class RawFileSource implements DataSourcePort {
  readonly stage = 3 as const;
  constructor(private readonly files: readonly { path: string; rows: number }[]) {}
  describe(): string {
    return `raw test files (${this.files.length})`;
  }
  async shards(): Promise<readonly ShardRef[]> {
    return this.files.map((f) => ({ id: basename(f.path), path: f.path, rows: f.rows, bytes: 0 }));
  }
  read(shard: ShardRef): Promise<StageColumns> {
    return readRawStageFile(shard.path, 3);
  }
  ioStats(): SourceIoStats | null {
    return null;
  }
}

/** The reader reference workers use for raw test files. @internal */
export const RAW_READER = { module: __filename, exportName: 'readRawStageFile' } as const;

/** As `readRawStageFile`, and appends the path to `reads.log` beside the file: which shards were decoded, how often. */
export const readRawStageFileLogged = async (path: string, stage: Stage): Promise<StageColumns> => {
  appendFileSync(join(dirname(path), 'reads.log'), `${path}\n`);
  return readRawStageFile(path, stage);
};
export const LOGGED_RAW_READER = { module: __filename, exportName: 'readRawStageFileLogged' } as const;
