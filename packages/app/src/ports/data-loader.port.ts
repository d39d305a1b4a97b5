import type { DataLoaderConfig, HostBatch } from '@maou/bench-domain';
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
  close(): Promise<void>;
}

/** Builds a loader over a source. @public */
export interface DataLoaderFactoryPort {
  create(source: DataSourcePort, config: DataLoaderConfig): Promise<DataLoaderPort>;
}
