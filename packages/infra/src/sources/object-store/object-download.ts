import { randomBytes } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { AnswerBudget } from '../shared/deadline';
import type { IoStatsRecorder } from '../shared/io-stats-recorder';
import type { ObjectEntry, ObjectStore } from './object-store';
import { partPathFor } from './stale-parts';
import { writeCachedFile } from '../../files/cache-file';
import { Sha256 } from '../../files/sha256';
import { FileError, fileError, isFileSystemError } from '../../files/file-error';

/** A transfer that ended with fewer or more bytes than the listing promised; worth another try. @internal */
export class SizeMismatchError extends Error {
  readonly transient = true;
  constructor(what: string, expected: number, got: number) {
    super(`${what}: expected ${expected} bytes, received ${got}`);
    this.name = 'SizeMismatchError';
  }
}

/** No byte for this long means the connection is dead; some clients never report a cut connection. @internal */
export class StalledTransferError extends Error {
  readonly transient = true;
  constructor(what: string, idleMs: number, received: number) {
    super(`${what}: no data for ${idleMs} ms after ${received} bytes, connection considered dropped`);
    this.name = 'StalledTransferError';
  }
}

/** Downloaded bytes that are not what the object should hold (not a whole data file); retrying will not help. @internal */
export class IncompleteObjectError extends Error {
  constructor(detail: string) {
    super(`the object's bytes are not a complete data file (${detail}); it was not cached`);
    this.name = 'IncompleteObjectError';
  }
}

/** `<scheme>://bucket/key` (`s3://…`, `gs://…`), for messages. @internal */
export const objectUrl = (store: ObjectStore, key: string): string => `${store.scheme}://${store.bucket}/${key}`;

/**
 * One attempt at fetching an object into `dest`, through the write rule ({@link writeCachedFile}: a file there that
 * this product did not write is refused, never replaced): bytes go to a temporary sibling named after this process
 * (so a later run can tell a leftover from a download in progress), the size is checked, `verify` checks the content,
 * then the SHA-256 record is written and the file renamed into place, so the cache never holds a partial or damaged
 * object under its real name.
 * `onBytes` hears every chunk as it arrives (progress).
 * @internal
 */
export const downloadOnce = async (
  store: ObjectStore,
  entry: ObjectEntry,
  dest: string,
  stats: IoStatsRecorder,
  patience: { readonly idleMs: number; readonly budget: AnswerBudget },
  onBytes?: (bytes: number) => void,
  verify?: (tmpPath: string) => Promise<void>,
): Promise<void> => {
  await mkdir(dirname(dest), { recursive: true });
  const idleTimeoutMs = patience.idleMs;
  const url = objectUrl(store, entry.key);
  const started = stats.startTransfer();
  let received = 0;
  let timer: NodeJS.Timeout | undefined;
  const fill = async (tmp: string): Promise<string> => {
    const digest = new Sha256();
    let sink: WriteStream | undefined;
    try {
      // the answer (the response's headers) counts against the request's budget
      const body = await patience.budget.wait(
        (signal) => store.read(entry.key, signal),
        idleTimeoutMs,
        () => new StalledTransferError(url, idleTimeoutMs, 0),
      );
      const arm = (): void => {
        clearTimeout(timer);
        timer = setTimeout(() => body.destroy(new StalledTransferError(url, idleTimeoutMs, received)), idleTimeoutMs);
      };
      // Until its first byte the object is not answered (GCS sends the request only once the body is read): that wait
      // spends the request's budget too; the idle limit then watches the bytes.
      const firstByte = new Promise<void>((resolve) => {
        body.once('data', () => resolve());
        body.once('close', () => resolve());
      });
      patience.budget
        .wait(
          () => firstByte,
          idleTimeoutMs,
          () => new StalledTransferError(url, idleTimeoutMs, 0),
          true,
        )
        .catch((e: unknown) => body.destroy(e as Error));
      body.on('data', (chunk: Uint8Array) => {
        if (received === 0 && chunk.length > 0) stats.firstByte();
        received += chunk.length;
        digest.add(chunk);
        onBytes?.(chunk.length);
        arm();
      });
      sink = createWriteStream(tmp, { flags: 'wx' });
      await pipeline(body, sink);
    } finally {
      // A stream destroyed before its file opened still opens (creates) it, then closes: wait, or the removal of the
      // temporary file comes first.
      const open = sink;
      if (open && !open.closed) await new Promise<void>((resolve) => open.once('close', () => resolve()));
    }
    if (received !== entry.size) throw new SizeMismatchError(url, entry.size, received);
    if (verify)
      await verify(tmp).catch((e: unknown) => {
        throw new IncompleteObjectError(e instanceof Error ? e.message : String(e));
      });
    return digest.hex();
  };
  try {
    await writeCachedFile(dest, fill, (target) => partPathFor(target, randomBytes(6).toString('hex')));
  } catch (error) {
    // A full or read-only cache is said as such, with the flag that moves it; a network failure stays as it came.
    if (isFileSystemError(error)) {
      const cause = fileError(error, dest);
      throw new FileError(
        dest,
        cause.code,
        `${cause.reason} (--input-local-cache-dir puts the cache elsewhere)`,
        'cannot write the cache file',
      );
    }
    throw error;
  } finally {
    clearTimeout(timer);
  }
  stats.finishTransfer(started, received);
};
