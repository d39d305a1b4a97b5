import { extname } from 'node:path';
import type { Stage, StageColumns } from '@maou/bench-domain';
import { DataFileError } from '../../arrow/data-file-error';
import { readArrowFile } from '../../arrow/feather-reader';
import { decodeStageBatches, stageBatchCheck } from '../../arrow/stage-table-decoder';
import { readNpyStageFile } from '../../npy/npy-stage-reader';

/** File suffixes read as Arrow IPC (File or Stream). @public */
export const ARROW_SUFFIXES: readonly string[] = ['.feather', '.arrow', '.arrows', '.ipc'];
/** Suffixes the local file source accepts. @public */
export const STAGE_FILE_SUFFIXES: readonly string[] = [...ARROW_SUFFIXES, '.npy'];

/**
 * Reads one shard of `stage` records into columnar memory. Called by loader worker threads.
 * @throws DataFileError naming the path (and column, row or byte offset) for every unreadable file.
 * @public
 */
export const readStageFile = async (path: string, stage: Stage): Promise<StageColumns> => {
  const suffix = extname(path).toLowerCase();
  if (suffix === '.npy') return readNpyStageFile(path, stage);
  if (!ARROW_SUFFIXES.includes(suffix))
    throw new DataFileError(
      { path },
      `unsupported file suffix "${suffix}" (expected one of ${STAGE_FILE_SUFFIXES.join(', ')})`,
    );
  const file = await readArrowFile(path, stageBatchCheck(path, stage));
  if (!file.ok) throw file.error;
  const columns = decodeStageBatches(file.value, stage);
  if (!columns.ok) throw columns.error;
  return columns.value;
};
