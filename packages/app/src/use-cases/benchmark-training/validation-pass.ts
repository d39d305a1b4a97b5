import { summarize, type HostBatch, type ValidationMetrics } from '@maou/bench-domain';
import type { ClockPort } from '../../ports/clock.port';
import type { Trainer } from '../../engine/trainer';
import { prefetchedBatches } from './prefetched-batches';

/**
 * Inference-only pass: no warm-up skipped, no gradients; metrics are sample-weighted means. `devicePrefetch` > 0
 * uploads that many batches ahead, as in the training pass.
 */
export const runValidationPass = async (source: AsyncIterator<HostBatch>, trainer: Trainer, clock: ClockPort, cap: number, devicePrefetch = 0): Promise<ValidationMetrics | null> => {
  const batches = prefetchedBatches(source, trainer, devicePrefetch, 'evaluate');
  const wall: number[] = [];
  const sums: Record<string, number> = {};
  let samples = 0;
  let loss = 0;
  let prev = clock.now();
  try {
    for (let i = 0; i < cap; i++) {
      const next = await batches.next();
      if (next.done) break;
      const r = await trainer.evaluate(next.value.device ?? next.value.host, clock);
      const end = clock.now();
      wall.push(end - prev);
      prev = end;
      const n = next.value.host.size;
      samples += n;
      loss += r.loss * n;
      for (const [k, v] of Object.entries(r.metrics)) sums[k] = (sums[k] ?? 0) + v * n;
    }
  } finally {
    await batches.return(undefined);
  }
  if (wall.length === 0) return null;
  const total = wall.reduce((a, b) => a + b, 0);
  return {
    batches: wall.length, samples, samples_per_second: (samples / total) * 1000, batch_ms: summarize(wall), loss: loss / samples,
    metrics: Object.fromEntries(Object.entries(sums).map(([k, v]) => [k, v / samples])),
  };
};
