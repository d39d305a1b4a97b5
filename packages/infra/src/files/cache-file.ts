import { readFile, rm, stat } from 'node:fs/promises';
import { outputTarget, writeFileAtomicFrom, writeFileAtomic } from './atomic-file';
import { CACHE_RECORD, CACHED_FILE, cacheRecordPath } from './output-kinds';
import { Sha256 } from './sha256';

/**
 * Why a cached file cannot be written at `path`, or null: a file there, or at its record's name, that this product
 * did not write (a user's own file in the folder named as the cache). Said before any work, naming the file.
 * @public
 */
export const cacheFileProblem = (path: string): string | null => {
  for (const [at, kind] of [
    [path, CACHED_FILE],
    [cacheRecordPath(path), CACHE_RECORD],
  ] as const) {
    const t = outputTarget(at, kind);
    if (t.kind === 'refuse') return t.reason;
    if (t.kind === 'in-place') return `${at} is a ${t.what}; a cache holds regular files`;
  }
  return null;
};

/**
 * Writes a cached file through the write rule ({@link writeFileAtomicFrom} with {@link CACHED_FILE}): `fill` writes
 * the temporary file it is given and returns the SHA-256 of what it wrote; that record is written beside the target
 * after the target's last check and before the rename, so a copy is never in place without the record that marks it
 * ours and checks it.
 * @public
 */
export const writeCachedFile = async (
  path: string,
  fill: (temp: string) => Promise<string>,
  temp?: (target: string) => string,
): Promise<void> => {
  let digest = '';
  await writeFileAtomicFrom(
    path,
    CACHED_FILE,
    async (t) => {
      digest = await fill(t);
    },
    { temp, beforeRename: () => writeFileAtomic(cacheRecordPath(path), `${digest}\n`, CACHE_RECORD) },
  );
};

/**
 * Whether a whole, undamaged copy is cached at `path`: `missing` (absent, or not of `size` when given), `damaged`
 * (its bytes differ from its record, or the record is gone) or `intact`.
 * @public
 */
export const cachedCopy = async (path: string, size?: number): Promise<'missing' | 'damaged' | 'intact'> => {
  const s = await stat(path).catch(() => null);
  if (s === null || !s.isFile() || (size !== undefined && s.size !== size)) return 'missing';
  const recorded = await readFile(cacheRecordPath(path), 'utf8').catch(() => null);
  if (recorded === null) return 'damaged';
  return (await Sha256.ofFile(path)) === recorded.trim() ? 'intact' : 'damaged';
};

/** Removes a cached file and its record (a cache over its budget evicting a page it wrote). @public */
export const removeCachedFile = async (path: string): Promise<void> => {
  await rm(path, { force: true });
  await rm(cacheRecordPath(path), { force: true });
};
