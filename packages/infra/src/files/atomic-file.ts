import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/**
 * A name beside `path` that no other writer uses: in its directory (a rename or link within one filesystem is
 * atomic), hidden, with this process's id and random bytes, so two writers of one path, in one process or two, never
 * share it; `what` says what it is for. The file lock's names come from here too.
 * @public
 */
export const siblingPath = (path: string, what: string): string =>
  join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.${what}`);

/**
 * The one way this project replaces a file: write a unique temporary file beside it, flush it to disk, rename it over
 * the target. A reader sees the old file or the new one, never half of one; on failure the temporary file is removed
 * and the target is untouched. Concurrent writers of one path leave one complete file (the last rename wins).
 * @public
 */
export const writeFileAtomic = async (path: string, content: Uint8Array | string): Promise<void> => {
  const temp = siblingPath(path, 'tmp');
  try {
    const file = await open(temp, 'wx');
    try {
      await file.writeFile(content);
      await file.sync();
    } finally {
      await file.close();
    }
    await rename(temp, path);
  } catch (e) {
    await rm(temp, { force: true });
    throw e;
  }
};

/** {@link writeFileAtomic}, synchronously: for the interrupt path, where the process exits right after. @public */
export const writeFileAtomicSync = (path: string, content: Uint8Array | string): void => {
  const temp = siblingPath(path, 'tmp');
  try {
    const fd = openSync(temp, 'wx');
    try {
      const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
      for (let at = 0; at < bytes.length;) at += writeSync(fd, bytes, at, bytes.length - at);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, path);
  } catch (e) {
    rmSync(temp, { force: true });
    throw e;
  }
};
