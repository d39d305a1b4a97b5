import type { HostBatch } from '@maou/bench-domain';
import { disposeUploadedBatch } from '@maou/bench-engine';
import type { UploadedBatch, Trainer } from '@maou/bench-engine/contracts';
import { devicePrefetch } from '../../loader/device-prefetch';

/** A host batch and, with device prefetch, its upload (handed to the trainer, which frees it). */
export interface PassBatch {
  readonly host: HostBatch;
  readonly device: UploadedBatch | null;
}

/** Whether a pass over this trainer with this buffer size prefetches to the device. */
export const prefetchesToDevice = (trainer: Trainer, bufferSize: number): boolean =>
  bufferSize > 0 && trainer.upload !== undefined;

/**
 * The batches of one pass. With `bufferSize` > 0 (and a trainer that can upload) the next `bufferSize` batches
 * are fetched and uploaded while the current step runs; `return()` frees those never stepped. Otherwise the host
 * batches pass through and the step uploads them itself (today's path, and the one for `--device-prefetch 0`).
 */
export async function* prefetchedBatches(
  source: AsyncIterator<HostBatch>,
  trainer: Trainer,
  bufferSize: number,
  use: 'train' | 'evaluate',
): AsyncGenerator<PassBatch> {
  const upload = trainer.upload?.bind(trainer);
  if (!prefetchesToDevice(trainer, bufferSize) || !upload) {
    for (let next = await source.next(); !next.done; next = await source.next())
      yield { host: next.value, device: null };
    return;
  }
  yield* devicePrefetch(source, { bufferSize, upload: (b) => upload(b, use), dispose: disposeUploadedBatch });
}
