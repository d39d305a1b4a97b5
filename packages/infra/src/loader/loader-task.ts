import type { PolicyTargetMode, Stage } from '@maou/bench-domain';

/** One file of a streaming pass; `rowSeed` null keeps the file's row order. @internal */
export interface StreamFile {
  readonly path: string;
  readonly rowSeed: number | null;
}

/** What one producer (the main thread or a worker) reads in one pass. @internal */
export type LoaderTask =
  | { readonly kind: 'stream'; readonly files: readonly StreamFile[] }
  | { readonly kind: 'map'; readonly batches: readonly Uint32Array[] };

/** Where a producer finds a shard reader: a module path and an export `(path, stage) => Promise<StageColumns>`. @public */
export interface ShardReaderRef {
  readonly module: string;
  readonly exportName: string;
}

/** Fixed facts a producer needs for every pass. @internal */
export interface ProducerSetup {
  readonly stage: Stage;
  /** applied to every shard as it is read (see `applyPolicyTarget`) */
  readonly policyTargetMode?: PolicyTargetMode;
  readonly batchSize: number;
  readonly pinMemory: boolean;
  /** map-style only: shard paths and first global row of each shard */
  readonly shardPaths: readonly string[];
  readonly shardOffsets: readonly number[];
}
