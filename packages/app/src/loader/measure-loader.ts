import type { ClockPort } from '../ports/clock.port';
import type { DataLoaderPort } from '../ports/data-loader.port';

/** What one timed loader pass delivered. @public */
export interface LoaderMeasurement {
  readonly batches: number;
  readonly samples: number;
  readonly elapsedMs: number;
  readonly samplesPerSecond: number;
  /** time the consumer waited for each batch */
  readonly waitMs: readonly number[];
  readonly stoppedEarly: boolean;
}

/** How long to measure, and when to give up on a clearly slower candidate. @public */
export interface MeasureOptions {
  readonly batches: number;
  readonly warmupBatches: number;
  readonly clock: ClockPort;
  /** asked after each measured batch with the rate so far; true stops the pass */
  readonly stopEarly?: (samplesPerSecond: number, batches: number) => boolean;
  /** called once after the warm-up, right before the timed batches (e.g. to snapshot resource counters) */
  readonly beforeTimed?: () => Promise<void>;
}

/**
 * Times `batches` training batches after a warm-up, crossing into further epochs when one is too short (so the
 * restart of a pass is part of the figure, as in training). Batches are released for reuse as soon as they are seen.
 * @public
 */
export const measureLoader = async (loader: DataLoaderPort, o: MeasureOptions): Promise<LoaderMeasurement> => {
  if (loader.batchesPerEpoch.train === 0)
    throw new Error('the training split yields no batch: use a smaller batch size or more data');
  let epoch = 0;
  let it = loader.iterate('train', epoch);
  const take = async () => {
    for (;;) {
      const r = await it.next();
      if (!r.done) return r.value;
      it = loader.iterate('train', ++epoch);
    }
  };
  try {
    for (let i = 0; i < o.warmupBatches; i++) loader.release?.(await take());
    const waitMs: number[] = [];
    let samples = 0;
    let stoppedEarly = false;
    await o.beforeTimed?.();
    const t0 = o.clock.now();
    while (waitMs.length < o.batches) {
      const t = o.clock.now();
      const batch = await take();
      waitMs.push(o.clock.now() - t);
      samples += batch.size;
      loader.release?.(batch);
      const rate = (1000 * samples) / Math.max(1e-9, o.clock.now() - t0);
      if (o.stopEarly?.(rate, waitMs.length)) {
        stoppedEarly = true;
        break;
      }
    }
    const elapsedMs = o.clock.now() - t0;
    return {
      batches: waitMs.length,
      samples,
      elapsedMs,
      samplesPerSecond: (1000 * samples) / Math.max(1e-9, elapsedMs),
      waitMs,
      stoppedEarly,
    };
  } finally {
    await it.return?.(undefined);
  }
};
