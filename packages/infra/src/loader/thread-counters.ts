import { performance } from 'node:perf_hooks';
import type { MapRowStore } from './map-row-store';
import type { ThreadCounters } from './worker-protocol';

/**
 * This thread's counters: event-loop busy/idle time since the thread started, its own V8 heap and off-heap
 * buffers (per isolate in Node, unlike RSS), and its row store's cache lookups.
 * @internal
 */
export const threadCounters = (store: MapRowStore): ThreadCounters => {
  const elu = performance.eventLoopUtilization();
  const mem = process.memoryUsage();
  return {
    busyMs: elu.active,
    idleMs: elu.idle,
    heapUsedBytes: mem.heapUsed,
    externalBytes: mem.external,
    cacheHits: store.lookups.hits,
    cacheMisses: store.lookups.misses,
  };
};
