import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, readFile, rename, stat, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { AnswerBudget } from '../shared/deadline';
import type { IoStatsRecorder } from '../shared/io-stats-recorder';
import type { ObjectEntry, ObjectStore } from './object-store';
import { partPathFor } from './stale-parts';
import { writeFileAtomic, type OutputKind } from '../../files/atomic-file';
import { FileError, fileError, isFileSystemError } from '../../files/file-error';
import { checkCompleteArrowFile } from './check-complete-arrow-file';

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

/** Where the SHA-256 of a cached object's bytes, recorded when it was downloaded, is kept: beside it. @internal */
export const digestPathFor = (dest: string): string => `${dest}.sha256`;

// The digest file: 64 hex digits and a newline, nothing else.
const DIGEST_FILE: OutputKind = {
  what: 'a SHA-256 file written by maou-bench (64 hex digits)',
  owns: (head) => /^[0-9a-f]{64}\n$/.test(head),
};

const sha256OfFile = (path: string): Promise<string> =>
  new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    createReadStream(path)
      .on('data', (chunk) => hash.update(chunk))
      .on('error', reject)
      .on('end', () => resolve(hash.digest('hex')));
  });

/**
 * Whether a whole, undamaged copy of the object is cached: `missing` (absent, or another size), `damaged` (its bytes
 * differ from the SHA-256 recorded when it was downloaded, or, for a copy older than digests, its Arrow footer or a
 * message runs past the end) or `intact`.
 * @internal
 */
export const cachedCopy = async (path: string, size: number): Promise<'missing' | 'damaged' | 'intact'> => {
  const s = await stat(path).catch(() => null);
  if (s === null || !s.isFile() || s.size !== size) return 'missing';
  const recorded = await readFile(digestPathFor(path), 'utf8').catch(() => null);
  if (recorded !== null) return (await sha256OfFile(path)) === recorded.trim() ? 'intact' : 'damaged';
  return checkCompleteArrowFile(path).then(
    () => 'intact' as const,
    () => 'damaged' as const,
  );
};

/** `<scheme>://bucket/key` (`s3://…`, `gs://…`), for messages. @internal */
export const objectUrl = (store: ObjectStore, key: string): string => `${store.scheme}://${store.bucket}/${key}`;

/**
 * One attempt at fetching an object into `dest`: bytes go to a temporary sibling named after this process (so a
 * later run can tell a leftover from a download in progress), the size is checked, `verify` checks the content,
 * then the file is renamed into place, so the cache never holds a partial or damaged object under its real name.
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
  const tmp = partPathFor(dest, randomBytes(6).toString('hex'));
  const started = stats.startTransfer();
  const digest = createHash('sha256');
  let received = 0;
  let sink: WriteStream | undefined;
  let timer: NodeJS.Timeout | undefined;
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
      digest.update(chunk);
      onBytes?.(chunk.length);
      arm();
    });
    sink = createWriteStream(tmp, { flags: 'wx' });
    await pipeline(body, sink);
    if (received !== entry.size) throw new SizeMismatchError(url, entry.size, received);
    if (verify)
      await verify(tmp).catch((e: unknown) => {
        throw new IncompleteObjectError(e instanceof Error ? e.message : String(e));
      });
    // the digest first: a copy is never in place without the record that checks it
    await writeFileAtomic(digestPathFor(dest), `${digest.digest('hex')}\n`, DIGEST_FILE);
    await rename(tmp, dest);
  } catch (error) {
    // A stream destroyed before its file opened still opens (creates) it, then closes: wait, or the unlink comes first.
    const open = sink;
    if (open && !open.closed) await new Promise<void>((resolve) => open.once('close', () => resolve()));
    await unlink(tmp).catch(() => undefined);
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
