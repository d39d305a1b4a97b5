import { readdir, stat, unlink } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';

// `<dest>.<host>~<pid>.<random>.part`: the owner is in the name, so a later run can ask whether it still runs.
const OWNED = /\.([^.~/]+)~(\d+)\.[0-9a-f]+\.part$/;
const host = (): string => hostname().replace(/[^A-Za-z0-9-]/g, '_');

/** The temporary file a download of `dest` by this process writes first. @internal */
export const partPathFor = (dest: string, nonce: string): string => `${dest}.${host()}~${process.pid}.${nonce}.part`;

const processRuns = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: it runs, under another user.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * Whether a `.part` file is a leftover of ours: named as a download or bundle names its temporary file, and its owner
 * on this host no longer runs or (another host's) it is old. Any other `.part` file is not ours and is left alone.
 */
const isLeftover = (name: string, mtimeMs: number, nowMs: number, maxAgeMs: number): boolean => {
  const owner = OWNED.exec(name);
  if (!owner) return false;
  if (owner[1] === host()) return Number(owner[2]) !== process.pid && !processRuns(Number(owner[2]));
  return nowMs - mtimeMs > maxAgeMs;
};

/**
 * Deletes the temporary files under `dir` left by a run killed mid-download or mid-bundle (named by
 * {@link partPathFor}): at once when the process that wrote one (on this host) is gone, otherwise after `maxAgeMs`,
 * since a young one may belong to a run sharing the cache right now on another machine. Returns how many went.
 * @internal
 */
export const sweepStaleParts = async (dir: string, nowMs: number, maxAgeMs = 3_600_000): Promise<number> => {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  let removed = 0;
  for (const e of entries) {
    if (!e.isFile() || !e.name.endsWith('.part')) continue;
    const path = join(e.parentPath, e.name);
    const s = await stat(path).catch(() => null);
    if (
      s !== null &&
      isLeftover(e.name, s.mtimeMs, nowMs, maxAgeMs) &&
      (await unlink(path).then(
        () => true,
        () => false,
      ))
    )
      removed += 1;
  }
  return removed;
};
