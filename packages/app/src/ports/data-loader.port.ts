import type { DataLoaderConfig, FileBoundaryPlan, HostBatch } from '@maou/bench-domain';
import type { DataSourcePort } from './data-source.port';

/** Which part of the split a pass reads. @public */
export type Split = 'train' | 'validation';

/** Batches of one epoch; `batches` counts what a full pass of the split yields. @public */
export interface DataLoaderPort {
  readonly batchesPerEpoch: Readonly<Record<Split, number>>;
  readonly samplesPerEpoch: Readonly<Record<Split, number>>;
  /** how the loader reads: streaming or map-style, workers, cache mode */
  describe(): Readonly<Record<string, unknown>>;
  iterate(split: Split, epoch: number): AsyncIterableIterator<HostBatch>;
  /** Optional: hands a consumed batch's memory back for reuse (pinned pool); the batch must not be read after. */
  release?(batch: HostBatch): void;
  /** Optional: a streaming pass's file reads and what the loader holds ready at each; null when it reads no files mid-pass. */
  fileBoundaries?(split: Split): FileBoundaryPlan | null;
  /** Optional: counters of every loading thread (the main thread when there are no workers). */
  threadStats?(): Promise<readonly LoaderThreadStats[]>;
  close(): Promise<void>;
}

/**
 * Counters of one loading thread since the loader started; callers take differences around a window.
 * `busyMs`/`idleMs`: the thread's event loop active and idle time (Node 20 cannot read a thread's own CPU time; the
 * loading work is synchronous, so busy time is the CPU the thread spent). Memory: that thread's V8 heap and the
 * buffers it holds outside it.
 * @public
 */
export interface LoaderThreadStats {
  /** 'main' for loading in the main thread (workers 0), else the worker's index */
  readonly thread: 'main' | number;
  readonly busyMs: number;
  readonly idleMs: number;
  readonly heapUsedBytes: number;
  readonly externalBytes: number;
  /** map-style shard lookups that found the shard already decoded in this thread's row store; null when streaming */
  readonly cacheHits: number | null;
  readonly cacheMisses: number | null;
}

/** Builds a loader over a source. @public */
export interface DataLoaderFactoryPort {
  create(source: DataSourcePort, config: DataLoaderConfig): Promise<DataLoaderPort>;
}
