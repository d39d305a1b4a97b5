import { randomBytes } from 'node:crypto';
import { link, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { siblingPath } from './atomic-file';
import { fileError } from './file-error';

/** How long to wait for a lock, and when a left-over lock counts as abandoned. @public */
export interface FileLockOptions {
  /** give up (with an error naming the lock file) after this long; default 10 s */
  readonly timeoutMs?: number;
  /** a lock older than this is abandoned whoever holds it; default 30 s (holders keep it for milliseconds) */
  readonly staleMs?: number;
}

interface Holder {
  readonly pid: number;
  readonly host: string;
  readonly token: string;
}

const sleep = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms));
const codeOf = (e: unknown): string | undefined => (e as NodeJS.ErrnoException).code;

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return codeOf(e) === 'EPERM';
  }
};

/** The holder written in a lock file and the file's age; null when there is no such file. */
const inspect = async (path: string): Promise<{ holder: Partial<Holder> | null; ageMs: number } | null> => {
  try {
    const [text, info] = await Promise.all([readFile(path, 'utf8'), stat(path)]);
    let holder: Partial<Holder> | null = null;
    try {
      holder = JSON.parse(text) as Partial<Holder>;
    } catch {
      holder = null;
    }
    return { holder, ageMs: Date.now() - info.mtimeMs };
  } catch (e) {
    if (codeOf(e) === 'ENOENT') return null;
    throw e;
  }
};

// Abandoned: its process on this machine has ended, or it is older than any real holder would keep it.
const abandoned = (seen: { holder: Partial<Holder> | null; ageMs: number }, staleMs: number): boolean =>
  (seen.holder?.host === hostname() && typeof seen.holder.pid === 'number' && !alive(seen.holder.pid)) ||
  seen.ageMs > staleMs;

/**
 * Removes an abandoned lock. It is first renamed to a name only this process uses and judged again there, so a lock
 * taken by a live process between the first look and the rename is not removed but linked back.
 */
const removeIfAbandoned = async (lock: string, staleMs: number): Promise<boolean> => {
  const seen = await inspect(lock);
  if (seen === null) return true;
  if (!abandoned(seen, staleMs)) return false;
  const moved = siblingPath(lock, 'stale');
  try {
    await rename(lock, moved);
  } catch (e) {
    if (codeOf(e) === 'ENOENT') return true;
    throw e;
  }
  try {
    const taken = await inspect(moved);
    if (taken === null || abandoned(taken, staleMs)) return true;
    // Linking back fails only if a third process took the lock in the moment it was away: the one case left where two
    // hold it at once, and it needs an abandoned lock to begin with.
    await link(moved, lock).catch((e: unknown) => {
      if (codeOf(e) !== 'EEXIST') throw e;
    });
    return false;
  } finally {
    await rm(moved, { force: true });
  }
};

/** Creates the lock file with its holder already in it (written beside it, then hard-linked: atomic, exclusive). */
const tryCreate = async (lock: string, holder: Holder): Promise<boolean> => {
  const temp = siblingPath(lock, 'new');
  try {
    // Inside the try: a full disk creates the file and then fails the write, and the empty file must go too.
    await writeFile(temp, JSON.stringify(holder), { flag: 'wx' });
    await link(temp, lock);
    return true;
  } catch (e) {
    if (codeOf(e) === 'EEXIST') return false;
    throw e;
  } finally {
    await rm(temp, { force: true });
  }
};

/**
 * Runs `work` while this process alone holds `<path>.lock`, for read-merge-write updates of `path` by several
 * processes (each maou run is one). Waits, with jitter, while another live holder has it; removes a lock whose holder
 * ended or that is older than `staleMs`; throws an error naming the lock file after `timeoutMs`.
 * @internal
 */
export const withFileLock = async <T>(
  path: string,
  work: () => Promise<T>,
  options: FileLockOptions = {},
): Promise<T> => {
  const { timeoutMs = 10_000, staleMs = 30_000 } = options;
  const lock = `${path}.lock`;
  const holder: Holder = { pid: process.pid, host: hostname(), token: randomBytes(8).toString('hex') };
  const started = Date.now();
  const created = (): Promise<boolean> =>
    tryCreate(lock, holder).catch((e: unknown) => {
      throw fileError(e, lock, `cannot create the lock file for ${path},`);
    });
  while (!(await created())) {
    if (await removeIfAbandoned(lock, staleMs)) continue;
    if (Date.now() - started > timeoutMs) {
      const seen = await inspect(lock);
      const who = seen?.holder?.pid === undefined ? '' : ` (held by process ${seen.holder.pid} on ${seen.holder.host})`;
      throw new Error(
        `${path}: another process kept the lock ${lock} for over ${timeoutMs / 1000} s${who}; if no maou run is using ${path}, delete ${lock}`,
      );
    }
    await sleep(5 + Math.random() * 20);
  }
  try {
    return await work();
  } finally {
    // Only our own lock: one judged abandoned and replaced while `work` ran is someone else's now.
    if ((await inspect(lock))?.holder?.token === holder.token) await rm(lock, { force: true });
  }
};
