import type { HostBatch } from '@maou/bench-domain';

/** How batches reach the device. @public */
export interface DevicePrefetchOptions<T> {
  /** batches prepared ahead; 0 turns prefetch off (fetch and upload when the step asks) */
  readonly bufferSize: number;
  /** host batch → device tensors (e.g. `tf.tensor` calls); may be async */
  readonly upload: (batch: HostBatch) => T | Promise<T>;
  /** frees device values that were prepared but never consumed */
  readonly dispose?: (device: T) => void;
}

/** A host batch with its device counterpart. @public */
export interface PreparedBatch<T> {
  readonly host: HostBatch;
  readonly device: T;
}

/**
 * Wraps a batch iterator so that the next batches are fetched and uploaded while the current step runs. Errors of
 * the source or of `upload` surface at the batch they belong to; stopping early disposes what was prepared.
 * @public
 */
export async function* devicePrefetch<T>(
  source: AsyncIterator<HostBatch>,
  options: DevicePrefetchOptions<T>,
): AsyncGenerator<PreparedBatch<T>> {
  const prepare = async (): Promise<PreparedBatch<T> | null> => {
    const next = await source.next();
    return next.done ? null : { host: next.value, device: await options.upload(next.value) };
  };
  const ahead: Promise<PreparedBatch<T> | null>[] = [];
  const fill = (): void => {
    while (ahead.length < options.bufferSize) {
      const p = prepare();
      // Rejections are seen when the batch is reached; until then they must not count as unhandled.
      p.catch(() => undefined);
      ahead.push(p);
    }
  };
  try {
    for (;;) {
      fill();
      const item = await (ahead.shift() ?? prepare());
      if (item === null) return;
      fill();
      yield item;
    }
  } finally {
    for (const p of ahead.splice(0)) {
      const left = await p.catch(() => null);
      if (left && options.dispose) options.dispose(left.device);
    }
    await source.return?.();
  }
}
