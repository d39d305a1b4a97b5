import { readdir, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Deletes `*.part` files older than `maxAgeMs` under `dir`: leftovers of a run killed mid-download.
 * Younger ones may belong to a run sharing the cache right now, so they are left alone. Returns how many went.
 * @internal
 */
export const sweepStaleParts = async (dir: string, nowMs: number, maxAgeMs = 3_600_000): Promise<number> => {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  let removed = 0;
  for (const e of entries) {
    if (!e.isFile() || !e.name.endsWith('.part')) continue;
    const path = join(e.parentPath, e.name);
    const s = await stat(path).catch(() => null);
    if (s !== null && nowMs - s.mtimeMs > maxAgeMs && (await unlink(path).then(() => true, () => false))) removed += 1;
  }
  return removed;
};
