import { accessSync, constants, realpathSync, statSync, type Stats } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { ValidationIssue } from '@maou/bench-domain';
import { outputProblem, outputTarget, unusablePath, type OutputKind } from '@maou/bench-infra';

const writable = (path: string): boolean => {
  try {
    accessSync(path, constants.W_OK);
    return true;
  } catch {
    return false;
  }
};

// ENOTDIR (a file used as a directory) counts as absent, like ENOENT.
const statOrNull = (path: string): Stats | null => {
  try {
    return statSync(path);
  } catch {
    return null;
  }
};

const nearestExisting = (path: string): string => {
  let p = resolve(path);
  while (!statOrNull(p) && dirname(p) !== p) p = dirname(p);
  return p;
};

/**
 * Checks that a directory the run will create or fill (caches, generated data) can be: it is a directory, or its
 * nearest existing ancestor is a writable directory.
 * @public
 */
export const checkOutputDir = (flag: string, path: string | undefined): ValidationIssue | null => {
  if (path === undefined) return null;
  if (path.trim() === '') return { field: flag, message: 'the path is empty' };
  const unusable = unusablePath(path);
  if (unusable) return { field: flag, message: unusable };
  const existing = nearestExisting(path);
  const what = existing === resolve(path) ? path : `${existing} (the nearest existing part of ${path})`;
  if (!statOrNull(existing)?.isDirectory()) return { field: flag, message: `${what} is not a directory` };
  if (!writable(existing)) return { field: flag, message: `${what} is not writable` };
  return null;
};

/**
 * Checks that a file of `kind` the run will write at its end can be written now, so a long benchmark never ends in an
 * unwritable path and lost results: the output rule (an existing file that is not this product's `kind` is refused),
 * then a try at the temporary file the write will use (`createsParent`: the writer makes missing directories, and
 * the try waits for them). Returns an issue naming `flag`, or null (also when the flag is absent).
 * @public
 */
export const checkOutputFile = (
  flag: string,
  path: string | undefined,
  kind: OutputKind,
  options: { readonly createsParent?: boolean } = {},
): ValidationIssue | null => {
  if (path === undefined) return null;
  if (path.trim() === '') return { field: flag, message: 'the path is empty' };
  const unusable = unusablePath(path);
  if (unusable) return { field: flag, message: unusable };
  if (statOrNull(path)?.isDirectory())
    return { field: flag, message: `${path} is a directory; name a file such as ${resolve(path, 'out')}` };
  // Devices and FIFOs are written in place, symlinks through to their target (the rule in `outputTarget`).
  const rule = outputTarget(path, kind);
  if (rule.kind === 'refuse') return { field: flag, message: rule.reason };
  if (rule.kind === 'in-place') return writable(path) ? null : { field: flag, message: `${path} is not writable` };
  const target = statOrNull(rule.path);
  if (target && !writable(rule.path)) return { field: flag, message: `${path} exists and is not writable` };
  const dir = dirname(resolve(rule.path));
  if (options.createsParent) {
    const issue = checkOutputDir(flag, dir);
    if (issue || !statOrNull(dir)) return issue;
  } else {
    const parent = statOrNull(dir);
    if (!parent) return { field: flag, message: `directory ${dir} does not exist` };
    if (!parent.isDirectory()) return { field: flag, message: `${dir} is not a directory` };
    if (!writable(dir)) return { field: flag, message: `directory ${dir} is not writable` };
  }
  const problem = outputProblem(path, kind);
  return problem ? { field: flag, message: problem } : null;
};

/** Runs the checks and keeps the issues. @public */
export const outputPathIssues = (checks: readonly (ValidationIssue | null)[]): ValidationIssue[] =>
  checks.filter((c): c is ValidationIssue => c !== null);

/**
 * What a path names once symlinks and `..` are resolved: the file's device and inode when it exists, else its real
 * directory and name; two paths with one identity are one file.
 * @public
 */
export const fileIdentity = (path: string): string => {
  const s = statOrNull(path);
  if (s) return `inode ${s.dev}:${s.ino}`;
  try {
    return join(realpathSync(dirname(resolve(path))), basename(path));
  } catch {
    return resolve(path);
  }
};

/** The real path of an existing path, else its absolute path. @internal */
export const realOrResolved = (path: string): string => {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
};
