import { open } from 'node:fs/promises';
import { readIpcFileLayout, sniffIpcFormat } from '../arrow/ipc-layout';

/**
 * Throws when a downloaded file that starts as Arrow IPC is not whole: its footer or a message runs past the end
 * (cut short on the server or on the way). Checked before the file is renamed into the cache, so a truncated object
 * is never cached. Reads footers and headers only. Other files (`.npy`) are left to their reader.
 * @internal
 */
export const checkCompleteArrowFile = async (path: string): Promise<void> => {
  const file = await open(path, 'r');
  const head = Buffer.alloc(8);
  try {
    await file.read(head, 0, 8, 0);
  } finally {
    await file.close();
  }
  if (sniffIpcFormat(head) === null) return;
  await readIpcFileLayout(path);
};
