import { join } from 'node:path';
import type { ObjectEntry } from './object-store';

/** maou lists `{prefix}/{data_name}/`; an empty prefix lists `{data_name}/`. @internal */
export const listPrefix = (prefix: string, dataName: string): string => {
  const p = prefix.replace(/^\/+|\/+$/g, '');
  const d = dataName.replace(/^\/+|\/+$/g, '');
  return p === '' ? `${d}/` : `${p}/${d}/`;
};

/** Only Arrow IPC objects are data; sorted by key so sampling and shard order do not depend on listing order. @internal */
export const featherObjects = (entries: readonly ObjectEntry[]): ObjectEntry[] =>
  entries.filter((e) => e.key.endsWith('.feather')).sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));

/**
 * Where an object lands in the cache: `{cacheDir}/{dataName}/{key below the listed prefix}`.
 * Keys come from the server, so segments like `..` are refused rather than allowed to escape the cache.
 * @internal
 */
export const cachePathFor = (cacheDir: string, dataName: string, prefix: string, key: string): string | null => {
  const segments = key.slice(prefix.length).split('/');
  if (segments.some((s) => s === '' || s === '.' || s === '..' || s.includes('\\') || s.includes('\0'))) return null;
  return join(cacheDir, dataName.replace(/^\/+|\/+$/g, ''), ...segments);
};
