import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Stage } from '@maou/bench-domain';
import { generateSampleData } from './generate-sample-data';
import type { ProgressCallback } from './random-games';
import { Sha256 } from '../files/sha256';
import { readSampleManifest, SAMPLE_SCHEMA_VERSION, type SampleManifest } from './sample-manifest';

/** @public */
export interface EnsureSampleDatasetOptions {
  readonly stage: Stage;
  readonly dir: string;
  readonly positions: number;
  readonly seed: number;
  readonly rowsPerFile?: number;
  readonly onProgress?: ProgressCallback;
}

// Each file's bytes must hash to what the manifest recorded when they were written: a file damaged in place (same
// size, other bytes) is regenerated instead of failing every later run.
const intact = async (dir: string, f: SampleManifest['files'][number]): Promise<boolean> => {
  const bytes = await readFile(join(dir, f.name)).catch(() => null);
  return bytes !== null && bytes.length === f.bytes && Sha256.of(bytes) === f.sha256;
};

const reusable = async (m: SampleManifest | null, o: EnsureSampleDatasetOptions): Promise<boolean> => {
  if (
    !m ||
    m.schemaVersion !== SAMPLE_SCHEMA_VERSION ||
    m.stage !== o.stage ||
    m.positions !== o.positions ||
    m.seed !== o.seed ||
    m.rowsPerFile !== (o.rowsPerFile ?? null)
  )
    return false;
  for (const f of m.files) if (!(await intact(o.dir, f))) return false;
  return m.files.length > 0;
};

const inFlight = new Map<string, Promise<string[]>>();

/**
 * The embedded sample dataset: reuses the files in `dir` when its manifest matches (stage, positions, seed,
 * rows per file, schema version, each file's size and SHA-256), otherwise generates them (with a new manifest).
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
  const existing = await readSampleManifest(o.dir);
  if (existing && (await reusable(existing, o))) return existing.files.map((f) => join(o.dir, f.name));
  const files = await generateSampleData({
    stage: o.stage,
    positions: o.positions,
    seed: o.seed,
    outputDir: o.dir,
    rowsPerFile: o.rowsPerFile,
    onProgress: o.onProgress,
  });
  return files.map((f) => f.path);
};
