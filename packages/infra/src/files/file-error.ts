import { statSync } from 'node:fs';

/** A failed file operation, said for the user: the path, the cause in words with its code, and what to do. @public */
export class FileError extends Error {
  constructor(
    readonly path: string,
    readonly code: string | undefined,
    /** the cause in words, without the path */
    readonly reason: string,
    doing = 'cannot write',
  ) {
    super(`${doing} ${path}: ${reason}`);
    this.name = 'FileError';
  }
}

// Each cause in words and what helps; the code stays in the text, as it is what people search for.
const CAUSES: Readonly<Record<string, string>> = {
  ENOSPC: 'no space left on the device (ENOSPC); free space on that filesystem or write to another',
  EDQUOT: 'disk quota exceeded (EDQUOT); free space or write to another filesystem',
  EFBIG:
    'file too large (EFBIG: the file-size limit, `ulimit -f`, or the filesystem); raise the limit or write elsewhere',
  EROFS: 'read-only filesystem (EROFS); write to another path',
  EACCES: 'permission denied (EACCES)',
  EPERM: 'operation not permitted (EPERM)',
  ELOOP: 'symlink loop (ELOOP): a symlink on this path points back to itself',
  ENAMETOOLONG: 'name too long (ENAMETOOLONG: a path is at most 4,095 bytes and each name in it at most 255)',
  ENOENT: 'no such file or directory (ENOENT)',
  ENOTDIR: 'a part of the path is not a directory (ENOTDIR)',
  EISDIR: 'is a directory (EISDIR)',
  EMFILE: 'too many open files (EMFILE); raise `ulimit -n`',
};

// The causes that come from the filesystem, not from a network peer (ECONNRESET and the like are not here).
const FILESYSTEM = new Set(Object.keys(CAUSES));

/** Whether an error is a filesystem failure (a full disk, a read-only or missing directory…). @public */
export const isFileSystemError = (e: unknown): boolean => {
  const code = codeOf(e);
  return code !== undefined && FILESYSTEM.has(code);
};

const codeOf = (e: unknown): string | undefined => {
  const code = (e as NodeJS.ErrnoException | null)?.code;
  return typeof code === 'string' ? code : undefined;
};

/** The words for a file-system error's cause (its code explained), without the path. @public */
export const fileCause = (e: unknown): string => {
  if (e instanceof FileError) return e.reason;
  const code = codeOf(e);
  if (code && CAUSES[code]) return CAUSES[code];
  return e instanceof Error ? e.message : String(e);
};

/**
 * A file-system error as a {@link FileError} naming `path` and its cause; `doing` says what was being done ("cannot
 * write the sample cache"). An error that is already one is returned as it is, so wrapping twice says it once.
 * @public
 */
export const fileError = (e: unknown, path: string, doing = 'cannot write'): FileError =>
  e instanceof FileError ? e : new FileError(path, codeOf(e), fileCause(e), doing);

/**
 * A path that cannot even be looked at, said by its cause: a symlink loop (ELOOP) or a path or name too long
 * (ENAMETOOLONG), which "no such file" or "does not exist" would misname. Null when the path can be looked up (it
 * may still not exist).
 * @public
 */
export const unusablePath = (path: string): string | null => {
  try {
    statSync(path);
    return null;
  } catch (e) {
    const code = codeOf(e);
    return code === 'ELOOP' || code === 'ENAMETOOLONG' ? `${shortPath(path)}: ${fileCause(e)}` : null;
  }
};

/** A path for a message: whole up to 300 characters, else its start and end with the length between. @public */
export const shortPath = (path: string): string =>
  path.length <= 300 ? path : `${path.slice(0, 120)}…(${path.length} characters)…${path.slice(-120)}`;
