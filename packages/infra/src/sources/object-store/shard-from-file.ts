import { basename } from 'node:path';
import type { ShardRef } from '@maou/bench-use-cases';
import type { Stage } from '@maou/bench-domain';
import { inspectStageFile } from '../local/inspect-stage-file';

/**
 * Describes a cached local copy of an object as a shard, through the same footer-only inspection as local files:
 * rows without reading bodies, and a clear refusal of HCPE or other-stage objects.
 * @internal
 */
export const shardFromFile = async (path: string, stage: Stage): Promise<ShardRef> => {
  const { rows, bytes } = await inspectStageFile(path, stage);
  return { id: basename(path), path, rows, bytes };
};
