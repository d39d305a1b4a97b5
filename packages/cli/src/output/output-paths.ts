import { accessSync, constants, statSync, type Stats } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { ValidationIssue } from '@maou/bench-domain';

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
  const existing = nearestExisting(path);
  const what = existing === resolve(path) ? path : `${existing} (the nearest existing part of ${path})`;
  if (!statOrNull(existing)?.isDirectory()) return { field: flag, message: `${what} is not a directory` };
  if (!writable(existing)) return { field: flag, message: `${what} is not writable` };
  return null;
};

/**
 * Checks that a file the run will write at its end can be written now, so a long benchmark never ends in an
 * unwritable path and lost results (`createsParent`: the writer makes missing directories). Returns an issue naming
 * `flag`, or null (also when the flag is absent).
 * @public
 */
export const checkOutputFile = (
  flag: string,
  path: string | undefined,
  options: { readonly createsParent?: boolean } = {},
): ValidationIssue | null => {
  if (path === undefined) return null;
  if (path.trim() === '') return { field: flag, message: 'the path is empty' };
  const target = statOrNull(path);
  if (target?.isDirectory())
    return { field: flag, message: `${path} is a directory; name a file such as ${resolve(path, 'out')}` };
  if (target && !writable(path)) return { field: flag, message: `${path} exists and is not writable` };
  const dir = dirname(resolve(path));
  if (options.createsParent) return checkOutputDir(flag, dir);
  const parent = statOrNull(dir);
  if (!parent) return { field: flag, message: `directory ${dir} does not exist` };
  if (!parent.isDirectory()) return { field: flag, message: `${dir} is not a directory` };
  if (!writable(dir)) return { field: flag, message: `directory ${dir} is not writable` };
  return null;
};

/** Runs the checks and keeps the issues. @public */
export const outputPathIssues = (checks: readonly (ValidationIssue | null)[]): ValidationIssue[] =>
  checks.filter((c): c is ValidationIssue => c !== null);
