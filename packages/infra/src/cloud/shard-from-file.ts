import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import type { ShardRef } from '@maou/bench-app';
import type { StageColumns } from '@maou/bench-domain';
import { countFeatherRows } from './feather-row-count';

/**
 * Describes a cached local file as a shard. Rows come from the Arrow footer when the file is IPC File format,
 * otherwise from reading it once.
 * @internal
 */
export const shardFromFile = async (path: string, read: (path: string) => Promise<StageColumns>): Promise<ShardRef> => {
  const { size } = await stat(path);
  const rows = (await countFeatherRows(path)) ?? (await read(path)).rows;
  return { id: basename(path), path, rows, bytes: size };
};
