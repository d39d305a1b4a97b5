import { withFileByteSource } from '../../arrow/byte-source';
import { readIpcLayout, sniffIpcFormat } from '../../arrow/ipc-layout';

/**
 * Throws when a downloaded file that starts as Arrow IPC is not whole: its footer or a message runs past the end
 * (cut short on the server or on the way). Checked before the file is renamed into the cache, so a truncated object
 * is never cached. Reads footers and headers only, through one open file. Other files (`.npy`) are left to their reader.
 * @internal
 */
export const checkCompleteArrowFile = (path: string): Promise<void> =>
  withFileByteSource(path, async (src) => {
    if (src.size < 8 || sniffIpcFormat(await src.read(0, 8)) === null) return;
    await readIpcLayout(src);
  });
