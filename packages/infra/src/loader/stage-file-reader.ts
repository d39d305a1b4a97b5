import { join } from 'node:path';
import type { ShardReaderRef } from './loader-task';

/** Workers read shards with infra's `readStageFile` (Arrow IPC and `.npy`) unless told otherwise. @public */
export const STAGE_FILE_READER: ShardReaderRef = {
  module: join(__dirname, '../sources/local/read-stage-file'),
  exportName: 'readStageFile',
};
