import type {
  DataLoaderPort,
  DataSourcePort,
  LoaderThreadStats,
  LoggerPort,
  ShardRef,
  Split,
} from '@maou/bench-use-cases';
import {
  batchBuffers,
  type DataLoaderConfig,
  type FileBoundaryPlan,
  type HostBatch,
  type StageColumns,
} from '@maou/bench-domain';
import { produceBatches, type ProducerContext } from './batch-producer';
import { passSize, passTasks, planDataset, type LoaderPlan } from './loader-plan';
import { streamingReads } from './dataset-plan';
import type { ProducerSetup, ShardReaderRef } from './loader-task';
import { MapRowStore } from './map-row-store';
import { applyPolicyTarget } from './policy-target-reader';
import { toSharedColumns } from './shared-columns';
import { processInterrupts } from '../interrupts/process-interrupts';
import { STAGE_FILE_READER } from './stage-file-reader';
import { WorkerPool } from './worker-pool';
import { threadCounters } from './thread-counters';
import type { ThreadCounters } from './worker-protocol';

/** Loader options that are not user settings. @public */
export interface DataLoaderOptions {
  /** how worker threads read a shard file; infra's `readStageFile` when absent */
  readonly reader?: ShardReaderRef;
  readonly logger?: LoggerPort;
}

/** Reads a shard through the source, with the run's policy target applied. */
const readShard =
  (source: DataSourcePort, config: DataLoaderConfig) =>
  async (shard: ShardRef): Promise<StageColumns> =>
    applyPolicyTarget(shard.path, await source.read(shard), config.policyTargetMode);

/**
 * The data loader: batches from the main thread (`workers` 0) or from worker threads handing buffers over by
 * transfer. With `pinMemory`, buffers given back through `release` are written again instead of allocating.
 * @public
 */
export class DataLoaderAdapter implements DataLoaderPort {
  readonly batchesPerEpoch: Readonly<Record<Split, number>>;
  readonly samplesPerEpoch: Readonly<Record<Split, number>>;
  private pool: WorkerPool | null = null;
  private readonly pinned: (readonly ArrayBuffer[])[] = [];
  private readonly local: ProducerContext;
  private readonly materialize: ((path: string) => Promise<void>) | undefined;
  private readonly setup: ProducerSetup;

  private constructor(
    source: DataSourcePort,
    private readonly config: DataLoaderConfig,
    private readonly plan: LoaderPlan,
    private readonly workers: number,
    private readonly options: DataLoaderOptions,
    private readonly shared: readonly StageColumns[] | null,
  ) {
    const sizes = (['train', 'validation'] as const).map((s) =>
      passSize(plan, s, config.batchSize, source.stage, workers),
    );
    this.batchesPerEpoch = { train: sizes[0]!.batches, validation: sizes[1]!.batches };
    this.samplesPerEpoch = { train: sizes[0]!.samples, validation: sizes[1]!.samples };
    const offsets = plan.mode === 'map-style' ? plan.offsets : [];
    this.setup = {
      stage: source.stage,
      ...(config.policyTargetMode ? { policyTargetMode: config.policyTargetMode } : {}),
      batchSize: config.batchSize,
      pinMemory: config.pinMemory,
      shardPaths: plan.shards.map((s) => s.path),
      shardOffsets: offsets,
    };
    const byPath = new Map(plan.shards.map((s) => [s.path, s]));
    this.materialize = source.materialize
      ? async (path) => {
          const shard = byPath.get(path);
          if (!shard) throw new Error(`${path}: not a shard of ${source.describe()}`);
          await source.materialize!(shard);
        }
      : undefined;
    const read = readShard(source, config);
    this.local = {
      setup: this.setup,
      readFile: (path) => read(byPath.get(path)!),
      store: new MapRowStore(offsets, (i) => read(plan.shards[i]!), shared ?? []),
      takeBuffers: () => (config.pinMemory ? this.pinned.pop() : undefined),
    };
  }

  /** Reads the shard list, splits it, and in `memory` mode loads every shard before any timing starts. */
  static async create(
    source: DataSourcePort,
    config: DataLoaderConfig,
    options: DataLoaderOptions = {},
  ): Promise<DataLoaderAdapter> {
    const shards = await source.shards();
    if (shards.length === 0) throw new Error(`${source.describe()}: no shards to read`);
    const plan = planDataset(shards, config);
    // Streaming workers each read whole files, so more workers than training files would sit idle.
    const workers = plan.mode === 'streaming' ? Math.min(config.workers, plan.files.train.length) : config.workers;
    let shared: StageColumns[] | null = null;
    if (plan.mode === 'map-style' && config.cacheMode === 'memory') {
      shared = [];
      const read = readShard(source, config);
      for (const s of shards) shared.push(workers > 0 ? toSharedColumns(await read(s)) : await read(s));
    }
    const loader = new DataLoaderAdapter(source, config, plan, workers, options, shared);
    options.logger?.info({ ...loader.describe() }, 'data loader ready');
    return loader;
  }

  describe(): Readonly<Record<string, unknown>> {
    const p = this.plan;
    return {
      mode: p.mode,
      workers: this.workers,
      requestedWorkers: this.config.workers,
      prefetchFactor: this.workers > 0 ? this.config.prefetchFactor : null,
      persistentWorkers: this.config.persistentWorkers && this.workers > 0,
      pinMemory: this.config.pinMemory,
      cacheMode: p.mode === 'streaming' ? 'stream' : this.config.cacheMode,
      shards: p.shards.length,
      ...(p.mode === 'streaming'
        ? { trainFiles: p.files.train.length, validationFiles: p.files.validation.length }
        : {}),
    };
  }

  async *iterate(split: Split, epoch: number): AsyncIterableIterator<HostBatch> {
    const tasks = passTasks(this.plan, split, epoch, this.workers, this.config, this.setup.stage);
    if (this.workers === 0) {
      yield* produceBatches(tasks[0]!, this.local);
      return;
    }
    const pool = this.pool ?? this.startPool();
    try {
      yield* pool.run(tasks, Math.max(1, this.config.prefetchFactor));
    } finally {
      if (!this.config.persistentWorkers) await this.stopPool();
    }
  }

  /** Gives a consumed batch's memory back for reuse (pinned pool); the batch must not be read afterwards. */
  release(batch: HostBatch): void {
    if (!this.config.pinMemory) return;
    if (this.pool) this.pool.recycle(batch);
    else this.pinned.push(batchBuffers(batch));
  }

  /**
   * Streaming: a pass reads each file (at Stage 2, each producer's group of up to 10) when its producer reaches it,
   * while the consumer has at most prefetch × workers batches ready and one in its step (none when the main thread
   * loads). Map-style passes read shards on demand from their first batches on, which a look sees: null.
   */
  fileBoundaries(split: Split): FileBoundaryPlan | null {
    if (this.plan.mode !== 'streaming') return null;
    // a worker starts its next read once the consumer has taken a batch to step and its lane holds `prefetch` more
    const beside = this.workers > 0;
    return {
      readsPerEpoch: streamingReads(this.plan.files[split], this.setup.stage, this.workers).length,
      leadBatches: beside ? this.config.prefetchFactor * this.workers + 1 : 0,
      besideStep: beside,
    };
  }

  /** Counters of each loading thread: the workers, or the main thread when it loads. */
  async threadStats(): Promise<readonly LoaderThreadStats[]> {
    const streaming = this.plan.mode === 'streaming';
    const shape = (thread: 'main' | number, c: ThreadCounters): LoaderThreadStats => ({
      thread,
      busyMs: c.busyMs,
      idleMs: c.idleMs,
      heapUsedBytes: c.heapUsedBytes,
      externalBytes: c.externalBytes,
      cacheHits: streaming ? null : c.cacheHits,
      cacheMisses: streaming ? null : c.cacheMisses,
    });
    if (this.workers === 0) return [shape('main', threadCounters(this.local.store))];
    return (await (this.pool ?? this.startPool()).stats()).map((c, k) => shape(k, c));
  }

  /** Batches waiting in this thread for the consumer; bounded by workers × prefetch factor. */
  bufferedBatches(): number {
    return this.pool?.buffered ?? 0;
  }

  async close(): Promise<void> {
    await this.stopPool();
  }

  private startPool(): WorkerPool {
    // Map-style `file` mode: workers decode each shard once into shared memory (SharedShardBroker).
    const shareFileShards = this.plan.mode === 'map-style' && this.shared === null;
    this.pool = new WorkerPool(
      this.workers,
      { setup: this.setup, reader: this.options.reader ?? STAGE_FILE_READER, shared: this.shared, shareFileShards },
      this.materialize,
    );
    processInterrupts.closeOnInterrupt(this);
    return this.pool;
  }

  private async stopPool(): Promise<void> {
    const pool = this.pool;
    this.pool = null;
    processInterrupts.release(this);
    await pool?.close();
  }
}
