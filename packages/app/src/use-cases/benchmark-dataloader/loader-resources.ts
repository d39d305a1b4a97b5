import { summarizeResources } from '@maou/bench-domain';
import type { LoaderThreadStats } from '../../ports/data-loader.port';
import type { ResourceSample } from '../../ports/resource-monitor.port';
import type { LoaderThreadUse, PointResources } from './benchmark-dataloader.input';

/**
 * A point's resource use from counters taken before and after its timed batches and the process samples between:
 * per thread busy share and memory, their mean busy share (worker efficiency), and the cache hit rate.
 */
export const loaderResources = (
  before: readonly LoaderThreadStats[],
  after: readonly LoaderThreadStats[],
  samples: readonly ResourceSample[],
  intervalMs: number,
  onGpu: boolean,
): PointResources => {
  const threads: LoaderThreadUse[] = after.map((a, i) => {
    const b = before[i]!;
    const busy = a.busyMs - b.busyMs;
    const idle = a.idleMs - b.idleMs;
    return {
      thread: a.thread,
      busy_share: busy + idle > 0 ? busy / (busy + idle) : 0,
      busy_ms: busy,
      heap_used_bytes: a.heapUsedBytes,
      external_bytes: a.externalBytes,
    };
  });
  const lookups = after.reduce(
    (n, a, i) =>
      a.cacheHits === null
        ? n
        : {
            hits: n.hits + a.cacheHits - (before[i]!.cacheHits ?? 0),
            misses: n.misses + (a.cacheMisses ?? 0) - (before[i]!.cacheMisses ?? 0),
          },
    { hits: 0, misses: 0 },
  );
  const streaming = after.every((a) => a.cacheHits === null);
  const total = lookups.hits + lookups.misses;
  const process = summarizeResources(samples, intervalMs);
  const gpu = onGpu ? process.gpu_util_percent : null;
  const cacheHitRate = streaming || total === 0 ? null : lookups.hits / total;
  return {
    process_cpu_percent: process.cpu_percent,
    rss_bytes: process.rss_bytes,
    gpu_util_percent: gpu,
    threads,
    worker_efficiency: threads.reduce((s, t) => s + t.busy_share, 0) / Math.max(1, threads.length),
    cache_hit_rate: cacheHitRate,
    null_reasons: {
      ...(gpu === null
        ? {
            gpu_util_percent: onGpu
              ? 'nvidia-smi gave no reading'
              : 'the backend is not a GPU: the loader benchmark ran on the CPU',
          }
        : {}),
      ...(cacheHitRate === null
        ? {
            cache_hit_rate: streaming
              ? 'streaming reads each file once; there is no shard cache'
              : 'no shard lookups in the window',
          }
        : {}),
    },
  };
};
