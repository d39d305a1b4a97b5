import type { HostBatch, StageColumns } from '@maou/bench-domain';
import type { LoaderTask, ProducerSetup, ShardReaderRef } from './loader-task';

/** What a loader worker starts with. @internal */
export interface WorkerInit {
  readonly setup: ProducerSetup;
  readonly reader: ShardReaderRef;
  /** map-style `memory` mode: every shard, in SharedArrayBuffer-backed columns */
  readonly shared: readonly StageColumns[] | null;
  /** map-style `file` mode: ask the main thread for shards, so that each is decoded once for all workers */
  readonly shareFileShards?: boolean;
}

/** Main thread → worker. @internal */
export type ToWorker =
  | { readonly type: 'run'; readonly runId: number; readonly task: LoaderTask; readonly credits: number }
  | { readonly type: 'credit'; readonly runId: number }
  | { readonly type: 'cancel'; readonly runId: number }
  | { readonly type: 'recycle'; readonly buffers: readonly ArrayBuffer[] }
  /** the answer to `shard-need`: shared columns, or null: decode it and send `shard-loaded` (or `shard-failed`) */
  | { readonly type: 'shard'; readonly shard: number; readonly columns: StageColumns | null }
  /** the answer to `materialize`: the path can be read again, or why not */
  | { readonly type: 'materialized'; readonly path: string; readonly error: string | null }
  /** asks for the worker's counters (`--enable-resource-monitoring`) */
  | { readonly type: 'stats'; readonly requestId: number };

/** Worker → main thread. @internal */
export type FromWorker =
  | { readonly type: 'batch'; readonly runId: number; readonly batch: HostBatch }
  | { readonly type: 'end'; readonly runId: number }
  | { readonly type: 'error'; readonly runId: number; readonly message: string; readonly stack: string | undefined }
  | { readonly type: 'shard-need'; readonly shard: number }
  | { readonly type: 'shard-loaded'; readonly shard: number; readonly columns: StageColumns }
  | { readonly type: 'shard-failed'; readonly shard: number }
  /** a shard file is missing (evicted from a bounded cache): the main thread asks the source to bring it back */
  | { readonly type: 'materialize'; readonly path: string }
  | { readonly type: 'stats'; readonly requestId: number; readonly stats: ThreadCounters };

/** A loading thread's counters; the same shape from the main thread and from workers. @internal */
export interface ThreadCounters {
  readonly busyMs: number;
  readonly idleMs: number;
  readonly heapUsedBytes: number;
  readonly externalBytes: number;
  readonly cacheHits: number;
  readonly cacheMisses: number;
}
