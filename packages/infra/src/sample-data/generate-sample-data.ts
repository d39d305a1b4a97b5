import { mkdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Stage, StageColumns } from '@maou/bench-domain';
import { writeStageFeather } from '../arrow/feather-writer';
import { playRandomGames, type ProgressCallback } from './random-games';
import { buildStage1, buildStage2, buildStage3, type StageRecords } from './stage-builders';

/** @public */
export interface SampleDataOptions {
  readonly stage: Stage;
  readonly positions: number;
  readonly outputDir: string;
  readonly seed?: number;
  /** rows per file; default maou's: 1,000,000 (Stage 3), 100,000 (Stage 2), everything (Stage 1) */
  readonly rowsPerFile?: number;
  readonly compression?: 'lz4' | 'none';
  readonly onProgress?: ProgressCallback;
}

/** One written shard. @public */
export interface SampleFile {
  readonly path: string;
  readonly rows: number;
  readonly bytes: number;
}

const BASENAME: Readonly<Record<Stage, string>> = { 1: 'stage1_data', 2: 'stage2', 3: 'transformed' };
const DEFAULT_ROWS_PER_FILE: Readonly<Record<Stage, number>> = { 1: Number.MAX_SAFE_INTEGER, 2: 100_000, 3: 1_000_000 };

/** Builds the records of a stage from random legal games (Stage 1 needs no games). @public */
export const buildSampleRecords = (
  stage: Stage,
  positions: number,
  seed: number,
  onProgress?: ProgressCallback,
): StageRecords<StageColumns> => {
  if (stage === 1) return buildStage1(positions);
  const hcpe = playRandomGames({ seed, uniquePositions: positions, onProgress });
  return stage === 3 ? buildStage3(hcpe, positions) : buildStage2(hcpe, positions, onProgress);
};

const sliceColumns = (c: StageColumns, start: number, rows: number): StageColumns => {
  const s = <T extends Uint8Array | Float32Array>(a: T, per: number): T =>
    a.subarray(start * per, (start + rows) * per) as T;
  const base = { rows, boardIdPositions: s(c.boardIdPositions, 81), piecesInHand: s(c.piecesInHand, 14) };
  if (c.stage === 1) return { ...base, stage: 1, reachableSquares: s(c.reachableSquares, 81) };
  if (c.stage === 2) return { ...base, stage: 2, legalMovesLabel: s(c.legalMovesLabel, 1496) };
  return {
    ...base,
    stage: 3,
    moveLabel: s(c.moveLabel, 1496),
    resultValue: s(c.resultValue, 1),
    ...(c.moveWinRate ? { moveWinRate: s(c.moveWinRate, 1496) } : {}),
    ...(c.bestMoveWinRate ? { bestMoveWinRate: s(c.bestMoveWinRate, 1) } : {}),
  };
};

/** Writes records as maou-named `.feather` shards (LZ4, one record batch each). @public */
export const writeStageShards = async (
  records: StageRecords<StageColumns>,
  outputDir: string,
  rowsPerFile: number,
  compression: 'lz4' | 'none' = 'lz4',
  onProgress?: ProgressCallback,
): Promise<SampleFile[]> => {
  await mkdir(outputDir, { recursive: true });
  const { columns, ids } = records;
  const stage = columns.stage;
  const chunks = Math.max(1, Math.ceil(columns.rows / rowsPerFile));
  const files: SampleFile[] = [];
  for (let k = 0; k < chunks; k++) {
    const start = k * rowsPerFile;
    const rows = Math.min(rowsPerFile, columns.rows - start);
    const name =
      chunks === 1 ? `${BASENAME[stage]}.feather` : `${BASENAME[stage]}_chunk${String(k).padStart(4, '0')}.feather`;
    const path = join(outputDir, name);
    const bytes = await writeStageFeather(path, sliceColumns(columns, start, rows), ids.subarray(start, start + rows), {
      compression,
    });
    files.push({ path, rows, bytes });
    onProgress?.(k + 1, chunks, 'writing');
  }
  return files;
};

/** Generates a sample dataset of one stage into `outputDir`. Deterministic for a seed. @public */
export const generateSampleData = async (o: SampleDataOptions): Promise<SampleFile[]> => {
  const records = buildSampleRecords(o.stage, o.positions, o.seed ?? 0, o.onProgress);
  return writeStageShards(
    records,
    o.outputDir,
    o.rowsPerFile ?? DEFAULT_ROWS_PER_FILE[o.stage],
    o.compression ?? 'lz4',
    o.onProgress,
  );
};

/** Size of a file, or null when it does not exist. @internal */
export const fileSize = async (path: string): Promise<number | null> => {
  try {
    return (await stat(path)).size;
  } catch {
    return null;
  }
};
