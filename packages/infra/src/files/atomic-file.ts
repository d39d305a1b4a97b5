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
  readSync,
  statSync,
  writeFile as writeFileCallback,
  writeSync,
  type Stats,
} from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { promisify } from 'node:util';
import { basename, dirname, join } from 'node:path';
import { FileError, fileError } from './file-error';

/**
 * A kind of file this product writes, and how it knows one it wrote: `owns` looks at an existing file's first bytes
 * (its format marker: a report's `"command"`, the calibration file's `formatVersion`…) or at its path (a data file
 * listed in the manifest beside it). An existing file is replaced only when it is empty or `owns` says it is ours.
 * @public
 */
export interface OutputKind {
  /** what the file is, for messages: "JSON report", "calibration file" */
  readonly what: string;
  readonly owns: (head: string, path: string) => boolean;
}

/** How many bytes of an existing file {@link OutputKind.owns} sees. @public */
export const OWNED_HEAD_BYTES = 1024;

/**
 * How an output path is written (the one rule, stated in docs/command-line.md, "Output files"):
 * - a new path, an empty file or a file of the kind being written that this product wrote (see {@link OutputKind}):
 *   replaced atomically (temporary file beside it, then rename); any other regular file is refused, never replaced;
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

/** The first {@link OWNED_HEAD_BYTES} of a file, as text; null when it cannot be read (absent, a directory). @public */
export const fileHead = (path: string): string | null => {
  try {
    return headOf(path);
  } catch {
    return null;
  }
};

const headOf = (path: string): string => {
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.alloc(OWNED_HEAD_BYTES);
    return buf.toString('utf8', 0, readSync(fd, buf, 0, buf.length, 0));
  } finally {
    closeSync(fd);
  }
};

// A file that is not ours is refused by name, with what it is not and what to do.
const ownedOrRefused = (path: string, real: string, size: number, kind: OutputKind): OutputTarget => {
  if (size === 0 || kind.owns(headOf(real), real)) return { kind: 'replace', path: real };
  return {
    kind: 'refuse',
    reason: `${path} exists and is not ${kind.what}; maou-bench never replaces a file it did not write: move it away or name another path`,
  };
};

/** Applies the {@link OutputTarget} rule to `path` for a file of `kind` (reads metadata and a regular file's head). @public */
export const outputTarget = (path: string, kind: OutputKind): OutputTarget => {
  const s = statOrNull(path, statSync);
  if (!s) {
    const link = statOrNull(path, lstatSync);
    return link?.isSymbolicLink()
      ? { kind: 'refuse', reason: `${path} is a symlink to a missing file` }
      : { kind: 'replace', path };
  }
  if (s.isFile()) return ownedOrRefused(path, realpathSync(path), s.size, kind);
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
  kind: OutputKind,
): { kind: 'replace'; path: string } | { kind: 'in-place'; path: string; what: string } => {
  const t = outputTarget(path, kind);
  if (t.kind === 'refuse') throw new FileError(path, undefined, t.reason);
  return t;
};

/** The longest name a directory entry may have on Linux filesystems, in bytes. @public */
export const NAME_MAX = 255;

// The first characters of `name` that fit in `bytes` UTF-8 bytes (never half a character).
const clipName = (name: string, bytes: number): string => {
  let out = '';
  let used = 0;
  for (const ch of name) {
    used += Buffer.byteLength(ch, 'utf8');
    if (used > bytes) break;
    out += ch;
  }
  return out;
};

/**
 * A name beside `path` that no other writer uses: in its directory (a rename or link within one filesystem is
 * atomic), hidden, with this process's id and random bytes, so two writers of one path, in one process or two, never
 * share it; `what` says what it is for. The target's name is clipped so the whole name stays within
 * {@link NAME_MAX}: a legal 250-byte output name must not fail at its temporary file. The file lock's names come from
 * here too.
 * @public
 */
export const siblingPath = (path: string, what: string): string => {
  const tail = `.${process.pid}.${randomBytes(6).toString('hex')}.${what}`;
  const room = NAME_MAX - 1 - Buffer.byteLength(tail, 'utf8');
  return join(dirname(path), `.${clipName(basename(path), room)}${tail}`);
};

/**
 * Whether a file of `kind` can be written at `path` now, by the rule and by a try: the temporary file the write
 * would use is created and removed, so a name too long, a read-only or full directory show before a long run
 * rather than after it. Returns why not, naming the path, or null.
 * @public
 */
export const outputProblem = (path: string, kind: OutputKind): string | null => {
  let target: OutputTarget;
  try {
    target = outputTarget(path, kind);
  } catch (e) {
    return fileError(e, path, 'cannot check').message;
  }
  if (target.kind === 'refuse') return target.reason;
  if (target.kind === 'in-place') return null;
  const probe = siblingPath(target.path, 'probe');
  try {
    closeSync(openSync(probe, 'wx'));
    rmSync(probe, { force: true });
    return null;
  } catch (e) {
    return fileError(e, path).message;
  }
};

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
export const writeFileAtomic = async (path: string, content: Uint8Array | string, kind: OutputKind): Promise<void> => {
  const target = targetOf(path, kind);
  try {
    await replaceOrWrite(target, content);
  } catch (e) {
    throw fileError(e, path);
  }
};

const replaceOrWrite = async (
  target: { kind: 'replace'; path: string } | { kind: 'in-place'; path: string; what: string },
  content: Uint8Array | string,
): Promise<void> => {
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
export const writeFileAtomicSync = (path: string, content: Uint8Array | string, kind: OutputKind): void => {
  const target = targetOf(path, kind);
  try {
    replaceOrWriteSync(target, content);
  } catch (e) {
    throw fileError(e, path);
  }
};

const replaceOrWriteSync = (
  target: { kind: 'replace'; path: string } | { kind: 'in-place'; path: string; what: string },
  content: Uint8Array | string,
): void => {
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

/** How {@link writeFileAtomicFrom} names its temporary file and what it does just before the rename. @public */
export interface AtomicFillOptions {
  /** the temporary file's name for the (resolved) target; default {@link siblingPath}'s `tmp` */
  readonly temp?: (target: string) => string;
  /** runs after the target was checked a last time, right before the rename (a record that must precede the file) */
  readonly beforeRename?: () => Promise<void>;
}

/**
 * {@link writeFileAtomic} for bytes too many to hold at once (a download, a bundle): the target is checked by the
 * {@link OutputTarget} rule before `fill` writes the temporary file it is given (creating it), and again after, since
 * a long fill leaves time for a file to appear; then the temporary file is flushed and renamed over the target. Only
 * a regular file (or a new path) is written this way: a device or FIFO is refused. On failure the temporary file is
 * removed, the target is untouched and the error is thrown as it came.
 * @public
 */
export const writeFileAtomicFrom = async (
  path: string,
  kind: OutputKind,
  fill: (temp: string) => Promise<void>,
  options: AtomicFillOptions = {},
): Promise<void> => {
  const target = regularTargetOf(path, kind);
  const temp = (options.temp ?? ((p: string) => siblingPath(p, 'tmp')))(target);
  track(temp);
  try {
    await fill(temp);
    const handle = await open(temp, 'r+');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
    regularTargetOf(path, kind);
    await options.beforeRename?.();
    await rename(temp, target);
  } catch (e) {
    await rm(temp, { force: true });
    // as it came: a fill's own failure (a network error) must keep its kind for the caller's retries
    throw e;
  } finally {
    untrack(temp);
  }
};

const regularTargetOf = (path: string, kind: OutputKind): string => {
  const t = targetOf(path, kind);
  if (t.kind === 'in-place') throw new FileError(path, undefined, `${path} is a ${t.what}; name a regular file`);
  return t.path;
};
