import {
  closePhases,
  phaseBreakdown,
  summarize,
  type BatchTiming,
  type HostBatch,
  type ValidationMetrics,
} from '@maou/bench-domain';
import type { ClockPort } from '../../ports/clock.port';
import type { Trainer } from '@maou/bench-engine/contracts';
import { prefetchedBatches } from './prefetched-batches';

/**
 * Inference-only pass: no warm-up skipped, no gradients; metrics are sample-weighted means. Each batch is split into
 * the training phases (data wait, upload, forward, loss, other; backward and optimiser are 0), timed the same way.
 * `devicePrefetch` > 0 uploads that many batches ahead, as in the training pass.
 */
export const runValidationPass = async (
  source: AsyncIterator<HostBatch>,
  trainer: Trainer,
  clock: ClockPort,
  cap: number,
  devicePrefetch = 0,
): Promise<Omit<ValidationMetrics, 'resources'> | null> => {
  const batches = prefetchedBatches(source, trainer, devicePrefetch, 'evaluate');
  const timings: BatchTiming[] = [];
  const sums: Record<string, number> = {};
  let samples = 0;
  let loss = 0;
  let prev = clock.now();
  try {
    for (let i = 0; i < cap; i++) {
      const next = await batches.next();
      if (next.done) break;
      const dataWait = clock.now() - prev;
      const r = await trainer.evaluate(next.value.device ?? next.value.host, clock);
      const end = clock.now();
      const closed = closePhases(end - prev, { dataWait, ...r.phasesMs, backward: 0, optimizer: 0 });
      const n = next.value.host.size;
      timings.push({ index: i, warmup: false, samples: n, startMs: prev, ...closed, loss: r.loss, numTensors: 0 });
      prev = end;
      samples += n;
      loss += r.loss * n;
      for (const [k, v] of Object.entries(r.metrics)) sums[k] = (sums[k] ?? 0) + v * n;
    }
  } finally {
    await batches.return(undefined);
  }
  if (timings.length === 0) return null;
  const wall = timings.map((t) => t.wallMs);
  const total = wall.reduce((a, b) => a + b, 0);
  return {
    batches: timings.length,
    samples,
    samples_per_second: (samples / total) * 1000,
    batch_ms: summarize(wall),
    ...phaseBreakdown(timings),
    loss: loss / samples,
    batch_mean_loss: timings.reduce((a, t) => a + t.loss, 0) / timings.length,
    final_loss: timings.at(-1)!.loss,
    metrics: Object.fromEntries(Object.entries(sums).map(([k, v]) => [k, v / samples])),
  };
};
