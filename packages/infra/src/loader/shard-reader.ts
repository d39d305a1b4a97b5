import { createRequire } from 'node:module';
import type { Stage, StageColumns } from '@maou/bench-domain';
import type { ShardReaderRef } from './loader-task';

/** Reads one shard file into columns. @public */
export type ShardReader = (path: string, stage: Stage) => Promise<StageColumns>;

/** Loads a reader by module path; through `require` so the test-time `.ts` hook of a worker applies too. @internal */
export const loadShardReader = (ref: ShardReaderRef): ShardReader => {
  const mod = createRequire(__filename)(ref.module) as Record<string, unknown>;
  const fn = mod[ref.exportName];
  if (typeof fn !== 'function') throw new Error(`${ref.module}: export ${ref.exportName} is not a function`);
  return fn as ShardReader;
};
