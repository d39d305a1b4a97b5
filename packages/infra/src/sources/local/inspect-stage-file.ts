import { open, readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import type { Stage } from '@maou/bench-domain';
import { DataFileError } from '../../arrow/data-file-error';
import { IpcLayoutError, IpcLimitError, readIpcFileLayout, sniffIpcFormat } from '../../arrow/ipc-layout';
import { checkStageSchema, expectedStageFile } from '../../arrow/stage-table-decoder';
import { hasNpyMagic } from '../../npy/npy-header';
import { npyShardOf } from '../../npy/npy-stage-reader';

/** Rows and size of one shard, as listing needs them. @public */
export interface StageFileSummary {
  readonly rows: number;
  readonly bytes: number;
}

const looksLike = async (path: string): Promise<string> => {
  const handle = await open(path, 'r');
  try {
    const head = Buffer.alloc(8);
    const { bytesRead } = await handle.read(head, 0, 8, 0);
    const bytes = new Uint8Array(head.buffer, head.byteOffset, bytesRead);
    const format = sniffIpcFormat(bytes);
    if (format) return `looks like a damaged Arrow IPC ${format === 'file' ? 'File' : 'Stream'}`;
    if (hasNpyMagic(bytes)) return 'looks like a .npy array';
    return bytesRead === 0
      ? 'is empty'
      : `looks like no known format (first bytes ${head.subarray(0, bytesRead).toString('hex')})`;
  } finally {
    await handle.close();
  }
};

/**
 * Rows of one data file from its footer or headers only (Arrow IPC) or its size (`.npy`), after checking that it holds
 * `stage` rows. Local listing and cached cloud objects share it.
 * @throws DataFileError naming the file, what it looks like and what was expected.
 * @public
 */
export const inspectStageFile = async (path: string, stage: Stage): Promise<StageFileSummary> => {
  if (extname(path).toLowerCase() === '.npy') {
    const bytes = await readFile(path).catch((e: unknown) => {
      throw new DataFileError({ path }, `cannot read file: ${e instanceof Error ? e.message : String(e)}`);
    });
    return {
      rows: npyShardOf(path, new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length), stage).rows,
      bytes: bytes.length,
    };
  }
  let layout;
  try {
    layout = await readIpcFileLayout(path);
  } catch (e) {
    if (!(e instanceof IpcLayoutError))
      throw new DataFileError({ path }, `cannot read file: ${e instanceof Error ? e.message : String(e)}`);
    const what = e instanceof IpcLimitError ? 'is beyond a limit of this reader, not damaged' : await looksLike(path);
    throw new DataFileError({ path, byteOffset: e.byteOffset }, `${what}: ${e.message}; ${expectedStageFile(stage)}`);
  }
  const wrong = checkStageSchema(
    path,
    layout.schema,
    stage,
    `Arrow IPC ${layout.format === 'file' ? 'File' : 'Stream'}`,
  );
  if (wrong) throw wrong;
  return { rows: layout.rows, bytes: layout.size };
};
