import { readdirSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Stage, StageColumns } from '@maou/bench-domain';
import { encodeStageFeather } from '../arrow/feather-writer';
import { outputTarget, writeFileAtomic } from '../files/atomic-file';
import { Sha256 } from '../files/sha256';
import { fileError } from '../files/file-error';
import {
  SAMPLE_DATA_FILE,
  SAMPLE_MANIFEST,
  SAMPLE_MANIFEST_FILE,
  SAMPLE_SCHEMA_VERSION,
  type SampleManifest,
} from './sample-manifest';
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

/** What the manifest records besides the files: how they were generated. @public */
export type GenerationParameters = Pick<SampleManifest, 'positions' | 'seed' | 'rowsPerFile'>;

const shardName = (stage: Stage, k: number, chunks: number): string =>
  chunks === 1 ? `${BASENAME[stage]}.feather` : `${BASENAME[stage]}_chunk${String(k).padStart(4, '0')}.feather`;

const isShardOf = (stage: Stage, name: string): boolean =>
  new RegExp(`^${BASENAME[stage]}(?:_chunk\\d{4})?\\.feather$`).test(name);

/**
 * Why the files of `stage` cannot be generated into `dir`, or null: a file there with a name they would take (or the
 * manifest) that this product did not write is never replaced. Looks before any game is played.
 * @public
 */
export const sampleOutputProblem = (dir: string, stage: Stage): string | null => {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return null; // not there yet: created by the run
  }
  for (const name of names.filter((n) => n === SAMPLE_MANIFEST || isShardOf(stage, n))) {
    const path = join(dir, name);
    const t = outputTarget(path, name === SAMPLE_MANIFEST ? SAMPLE_MANIFEST_FILE : SAMPLE_DATA_FILE);
    if (t.kind === 'refuse') return t.reason;
  }
  return null;
};

// The directories `mkdir -p` made, so a failed generation leaves nothing behind.
const makeDir = async (dir: string): Promise<string | undefined> => {
  try {
    return await mkdir(dir, { recursive: true });
  } catch (e) {
    throw fileError(e, resolve(dir), 'cannot create the directory');
  }
};

/**
 * Writes records as maou-named `.feather` shards (LZ4, one record batch each) and the manifest that lists them,
 * written first so a file is known as ours from the moment it exists. A failure (a full disk) removes the
 * directories this call created.
 * @public
 */
export const writeStageShards = async (
  records: StageRecords<StageColumns>,
  outputDir: string,
  rowsPerFile: number,
  compression: 'lz4' | 'none' = 'lz4',
  onProgress?: ProgressCallback,
  generation: GenerationParameters = { positions: records.columns.rows, seed: 0, rowsPerFile: null },
): Promise<SampleFile[]> => {
  const { columns, ids } = records;
  const stage = columns.stage;
  const chunks = Math.max(1, Math.ceil(columns.rows / rowsPerFile));
  const encoded = Array.from({ length: chunks }, (_, k) => {
    const start = k * rowsPerFile;
    const rows = Math.min(rowsPerFile, columns.rows - start);
    const bytes = encodeStageFeather(sliceColumns(columns, start, rows), ids.subarray(start, start + rows), {
      compression,
    });
    return { name: shardName(stage, k, chunks), rows, bytes };
  });
  const manifest: SampleManifest = {
    schemaVersion: SAMPLE_SCHEMA_VERSION,
    stage,
    ...generation,
    files: encoded.map((f) => ({ name: f.name, rows: f.rows, bytes: f.bytes.length, sha256: Sha256.of(f.bytes) })),
  };
  const created = await makeDir(outputDir);
  try {
    await writeFileAtomic(join(outputDir, SAMPLE_MANIFEST), JSON.stringify(manifest, null, 2), SAMPLE_MANIFEST_FILE);
    const files: SampleFile[] = [];
    for (const [k, f] of encoded.entries()) {
      const path = join(outputDir, f.name);
      await writeFileAtomic(path, f.bytes, SAMPLE_DATA_FILE);
      files.push({ path, rows: f.rows, bytes: f.bytes.length });
      onProgress?.(k + 1, chunks, 'writing');
    }
    return files;
  } catch (e) {
    if (created !== undefined) await rm(created, { recursive: true, force: true });
    throw e;
  }
};

/**
 * Generates a sample dataset of one stage into `outputDir`. Deterministic for a seed. Refused, before any game is
 * played, when the directory holds a file of that stage's names that this product did not write.
 * @public
 */
export const generateSampleData = async (o: SampleDataOptions): Promise<SampleFile[]> => {
  const problem = sampleOutputProblem(o.outputDir, o.stage);
  if (problem) throw new Error(problem);
  const seed = o.seed ?? 0;
  const records = buildSampleRecords(o.stage, o.positions, seed, o.onProgress);
  return writeStageShards(
    records,
    o.outputDir,
    o.rowsPerFile ?? DEFAULT_ROWS_PER_FILE[o.stage],
    o.compression ?? 'lz4',
    o.onProgress,
    { positions: o.positions, seed, rowsPerFile: o.rowsPerFile ?? null },
  );
};
