import type { HostBatch, StageColumns } from '@maou/bench-domain';
import type { LoaderTask, ProducerSetup, ShardReaderRef } from './loader-task';

/** What a loader worker starts with. @internal */
export interface WorkerInit {
  readonly setup: ProducerSetup;
  readonly reader: ShardReaderRef;
  /** map-style `memory` mode: every shard, in SharedArrayBuffer-backed columns */
  readonly shared: readonly StageColumns[] | null;
}

/** Main thread → worker. @internal */
export type ToWorker =
  | { readonly type: 'run'; readonly runId: number; readonly task: LoaderTask; readonly credits: number }
  | { readonly type: 'credit'; readonly runId: number }
  | { readonly type: 'cancel'; readonly runId: number }
  | { readonly type: 'recycle'; readonly buffers: readonly ArrayBuffer[] };

/** Worker → main thread. @internal */
export type FromWorker =
  | { readonly type: 'batch'; readonly runId: number; readonly batch: HostBatch }
  | { readonly type: 'end'; readonly runId: number }
  | { readonly type: 'error'; readonly runId: number; readonly message: string; readonly stack: string | undefined };
