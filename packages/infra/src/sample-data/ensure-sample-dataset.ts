import { readFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import type { Stage } from '@maou/bench-domain';
import { writeFileAtomic } from '../files/atomic-file';
import { fileSize, generateSampleData, type SampleFile } from './generate-sample-data';
import type { ProgressCallback } from './random-games';

/** Bump when generated content or layout changes, so old caches are regenerated. @public */
export const SAMPLE_SCHEMA_VERSION = 2;
const MANIFEST = 'maou-sample-manifest.json';

/** @public */
export interface EnsureSampleDatasetOptions {
  readonly stage: Stage;
  readonly dir: string;
  readonly positions: number;
  readonly seed: number;
  readonly rowsPerFile?: number;
  readonly onProgress?: ProgressCallback;
}

interface Manifest {
  readonly schemaVersion: number;
  readonly stage: Stage;
  readonly positions: number;
  readonly seed: number;
  readonly rowsPerFile: number | null;
  readonly files: readonly { readonly name: string; readonly rows: number; readonly bytes: number }[];
}

const readManifest = async (dir: string): Promise<Manifest | null> => {
  try {
    return JSON.parse(await readFile(join(dir, MANIFEST), 'utf8')) as Manifest;
  } catch {
    return null;
  }
};

const reusable = async (m: Manifest | null, o: EnsureSampleDatasetOptions): Promise<boolean> => {
  if (
    !m ||
    m.schemaVersion !== SAMPLE_SCHEMA_VERSION ||
    m.stage !== o.stage ||
    m.positions !== o.positions ||
    m.seed !== o.seed ||
    m.rowsPerFile !== (o.rowsPerFile ?? null)
  )
    return false;
  for (const f of m.files) if ((await fileSize(join(o.dir, f.name))) !== f.bytes) return false;
  return m.files.length > 0;
};

const inFlight = new Map<string, Promise<string[]>>();

/**
 * The embedded sample dataset: reuses the files in `dir` when its manifest matches (stage, positions, seed,
 * rows per file, schema version, file sizes), otherwise generates them and records a new manifest atomically.
 * @public
 */
export const ensureSampleDataset = (o: EnsureSampleDatasetOptions): Promise<string[]> => {
  // Runs in one process share the temporaries' names (path + pid), so they take turns per directory; separate
  // processes write their own temporaries and rename identical files over each other.
  const key = resolve(o.dir);
  const next = (inFlight.get(key) ?? Promise.resolve([])).catch(() => []).then(() => ensureOnce(o));
  inFlight.set(key, next);
  return next.finally(() => {
    if (inFlight.get(key) === next) inFlight.delete(key);
  });
};

const ensureOnce = async (o: EnsureSampleDatasetOptions): Promise<string[]> => {
  const existing = await readManifest(o.dir);
  if (existing && (await reusable(existing, o))) return existing.files.map((f) => join(o.dir, f.name));
  const files: SampleFile[] = await generateSampleData({
    stage: o.stage,
    positions: o.positions,
    seed: o.seed,
    outputDir: o.dir,
    rowsPerFile: o.rowsPerFile,
    onProgress: o.onProgress,
  });
  const manifest: Manifest = {
    schemaVersion: SAMPLE_SCHEMA_VERSION,
    stage: o.stage,
    positions: o.positions,
    seed: o.seed,
    rowsPerFile: o.rowsPerFile ?? null,
    files: files.map((f) => ({ name: basename(f.path), rows: f.rows, bytes: f.bytes })),
  };
  await writeFileAtomic(join(o.dir, MANIFEST), JSON.stringify(manifest, null, 2));
  return files.map((f) => f.path);
};
