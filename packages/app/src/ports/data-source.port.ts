import type { Stage, StageColumns } from '@maou/bench-domain';

/** One unit of storage a dataset is split into (a file, a downloaded object, a cached BigQuery page). @public */
export interface ShardRef {
  readonly id: string;
  /** local path the loader workers read; every source materialises shards locally */
  readonly path: string;
  readonly rows: number;
  readonly bytes: number;
}

/** What a source reports about its own I/O, for the report's I/O block. @public */
export interface SourceIoStats {
  readonly source: string;
  readonly objects: number;
  readonly bytes: number;
  readonly timeToFirstByteMs: number | null;
  readonly megabytesPerSecond: number | null;
  readonly retries: number;
  readonly cacheHits: number;
}

/** A dataset of one stage: its shards, and a reader for one shard. @public */
export interface DataSourcePort {
  readonly stage: Stage;
  describe(): string;
  shards(): Promise<readonly ShardRef[]>;
  read(shard: ShardRef): Promise<StageColumns>;
  /**
   * Optional, for sources with a bounded local cache (BigQuery pages evicted beyond `--input-max-cached-bytes`):
   * makes `shard.path` readable again. Loader workers, which read paths themselves, ask for it on a missing file.
   */
  materialize?(shard: ShardRef): Promise<void>;
  ioStats(): SourceIoStats | null;
}
