import type { Stage, StageColumns } from '@maou/bench-domain';
import { decodeStageBatches } from '../arrow/stage-table-decoder';
import { readArrowFile } from '../arrow/feather-reader';

/**
 * Reads a cached shard with infra's local `.feather` reader. The port's `read` can only reject, so a file
 * that does not decode surfaces as the reader's DataFileError (it names file, column, batch and row).
 * @internal
 */
export const readCachedStageFile = async (path: string, stage: Stage): Promise<StageColumns> => {
  const file = await readArrowFile(path);
  if (!file.ok) throw file.error;
  const columns = decodeStageBatches(file.value, stage);
  if (!columns.ok) throw columns.error;
  return columns.value;
};
