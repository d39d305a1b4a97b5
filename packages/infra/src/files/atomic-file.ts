import { randomBytes } from 'node:crypto';
import {
  close as closeCallback,
  closeSync,
  constants,
  fsync as fsyncCallback,
  fsyncSync,
  lstatSync,
  openSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeFile as writeFileCallback,
  writeSync,
  type Stats,
} from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { promisify } from 'node:util';
import { basename, dirname, join } from 'node:path';

/**
 * How an output path is written (the one rule, stated in docs/command-line.md, "Output files"):
 * - a new path or a regular file: replaced atomically (temporary file beside it, then rename);
 * - a symlink: resolved to its final target, and that target is written by this same rule (the link stays a link);
 * - a character device or a FIFO (`/dev/null`, `/dev/stdout`, `>(jq .)`): written in place, as `tee` would, never
 *   replaced; a FIFO must have a reader when the write comes;
 * - a directory, socket, block device or a symlink to nothing: refused.
 * @public
 */
export type OutputTarget =
  | { readonly kind: 'replace'; readonly path: string }
  | { readonly kind: 'in-place'; readonly path: string; readonly what: 'character device' | 'FIFO' }
  | { readonly kind: 'refuse'; readonly reason: string };

const statOrNull = (path: string, stat: (p: string) => Stats): Stats | null => {
  try {
    return stat(path);
  } catch {
    return null;
  }
};

/** The kind of a file that is neither a regular file nor a directory, for messages. @public */
export const specialFileKind = (s: Stats): string | null =>
  s.isFIFO()
    ? 'FIFO'
    : s.isCharacterDevice()
      ? 'character device'
      : s.isBlockDevice()
        ? 'block device'
        : s.isSocket()
          ? 'socket'
          : null;

/** Applies the {@link OutputTarget} rule to `path` (reads metadata only). @public */
export const outputTarget = (path: string): OutputTarget => {
  const s = statOrNull(path, statSync);
  if (!s) {
    const link = statOrNull(path, lstatSync);
    return link?.isSymbolicLink()
      ? { kind: 'refuse', reason: `${path} is a symlink to a missing file` }
      : { kind: 'replace', path };
  }
  if (s.isFile()) return { kind: 'replace', path: realpathSync(path) };
  if (s.isDirectory()) return { kind: 'refuse', reason: `${path} is a directory` };
  if (s.isCharacterDevice() || s.isFIFO())
    return { kind: 'in-place', path, what: s.isFIFO() ? 'FIFO' : 'character device' };
  return { kind: 'refuse', reason: `${path} is a ${specialFileKind(s) ?? 'special file'}; name a regular file` };
};

const writeFd = promisify(writeFileCallback);
const fsync = promisify(fsyncCallback);
const close = promisify(closeCallback);

const O_IN_PLACE = constants.O_WRONLY | constants.O_APPEND;

// A FIFO without a reader would block the open for ever: probe without blocking, then open for real while the probe
// is still open. Closing the probe first would let the reader see end-of-file and leave (a `cat`, `>(jq .)`), and the
// blocking open would then wait for ever.
const openInPlaceSync = (target: { path: string; what: string }): number => {
  if (target.what !== 'FIFO') return openSync(target.path, O_IN_PLACE);
  let probe: number;
  try {
    probe = openSync(target.path, O_IN_PLACE | constants.O_NONBLOCK);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENXIO') throw new Error(`FIFO ${target.path} has no reader`);
    throw e;
  }
  try {
    return openSync(target.path, O_IN_PLACE);
  } finally {
    closeSync(probe);
  }
};

const writeAllSync = (fd: number, content: Uint8Array | string): void => {
  const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
  for (let at = 0; at < bytes.length;) at += writeSync(fd, bytes, at, bytes.length - at);
};

// Like `tee`: a device or pipe takes the bytes as they come; nothing is replaced.
const writeInPlaceSync = (target: { path: string; what: string }, content: Uint8Array | string): void => {
  const fd = openInPlaceSync(target);
  try {
    writeAllSync(fd, content);
  } finally {
    closeSync(fd);
  }
};

const targetOf = (
  path: string,
): { kind: 'replace'; path: string } | { kind: 'in-place'; path: string; what: string } => {
  const t = outputTarget(path);
  if (t.kind === 'refuse') throw new Error(`cannot write ${path}: ${t.reason}`);
  return t;
};

/**
 * A name beside `path` that no other writer uses: in its directory (a rename or link within one filesystem is
 * atomic), hidden, with this process's id and random bytes, so two writers of one path, in one process or two, never
 * share it; `what` says what it is for. The file lock's names come from here too.
 * @public
 */
export const siblingPath = (path: string, what: string): string =>
  join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.${what}`);

// Temporary files being written now. A process that exits mid-write (a second Ctrl-C, `process.exit` anywhere)
// removes them in its 'exit' event, which runs synchronously before the process ends; the listener exists only while
// a write is in flight, so an embedding application sees no listener of ours otherwise.
const inFlight = new Set<string>();
const removeInFlight = (): void => {
  inFlight.forEach((temp) => rmSync(temp, { force: true }));
  inFlight.clear();
};
const track = (temp: string): void => {
  if (inFlight.size === 0) process.on('exit', removeInFlight);
  inFlight.add(temp);
};
const untrack = (temp: string): void => {
  inFlight.delete(temp);
  if (inFlight.size === 0) process.removeListener('exit', removeInFlight);
};

/**
 * The one way this project writes an output, by the {@link OutputTarget} rule: a regular file (or a new path, or a
 * symlink's regular target) is replaced by writing a unique temporary file beside it, flushing it to disk and renaming
 * it over the target; a character device or FIFO is written in place; anything else is refused. A reader sees the old
 * file or the new one, never half of one; on failure, or when the process exits mid-write, the temporary file is
 * removed and the target is untouched. Concurrent writers of one path leave one complete file (the last rename wins).
 * @public
 */
export const writeFileAtomic = async (path: string, content: Uint8Array | string): Promise<void> => {
  const target = targetOf(path);
  if (target.kind === 'in-place') return writeInPlaceSync(target, content);
  const temp = siblingPath(target.path, 'tmp');
  // Created synchronously: an exit while an asynchronous open is still queued would remove the name before the open
  // creates it, and leave an empty temporary file behind (seen in 1 of 25 loaded runs).
  const fd = openSync(temp, 'wx');
  track(temp);
  try {
    try {
      await writeFd(fd, content);
      await fsync(fd);
    } finally {
      await close(fd);
    }
    await rename(temp, target.path);
  } catch (e) {
    await rm(temp, { force: true });
    throw e;
  } finally {
    untrack(temp);
  }
};

/** {@link writeFileAtomic}, synchronously: for the interrupt path, where the process exits right after. @public */
export const writeFileAtomicSync = (path: string, content: Uint8Array | string): void => {
  const target = targetOf(path);
  if (target.kind === 'in-place') return writeInPlaceSync(target, content);
  const temp = siblingPath(target.path, 'tmp');
  try {
    const fd = openSync(temp, 'wx');
    try {
      writeAllSync(fd, content);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, target.path);
  } catch (e) {
    rmSync(temp, { force: true });
    throw e;
  }
};
