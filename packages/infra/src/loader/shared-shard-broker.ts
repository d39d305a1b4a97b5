import type { StageColumns } from '@maou/bench-domain';

/** Where a loader worker gets a map-style shard from: columns another worker decoded, or `null`: decode it yourself. */
export type ShardAnswer = (worker: number, shard: number, columns: StageColumns | null) => void;

/**
 * Map-style `file` mode with workers: each shard is decoded once, by the first worker that needs it, into shared
 * memory, and every other worker reads those same columns. Without this, every worker kept its own decoded copy of
 * every shard it touched (with shuffling, all of them): memory grew with the number of workers.
 * Lives on the main thread, which only passes messages; the decoding stays in the workers.
 * @internal
 */
export class SharedShardBroker {
  private readonly ready = new Map<number, StageColumns>();
  private readonly waiting = new Map<number, number[]>();

  constructor(private readonly answer: ShardAnswer) {}

  /** Worker `worker` needs `shard`. */
  need(worker: number, shard: number): void {
    const columns = this.ready.get(shard);
    if (columns) return this.answer(worker, shard, columns);
    const queue = this.waiting.get(shard);
    if (queue) {
      queue.push(worker);
      return;
    }
    this.waiting.set(shard, []);
    this.answer(worker, shard, null);
  }

  /** The worker told to decode `shard` has put it in shared memory. */
  loaded(shard: number, columns: StageColumns): void {
    this.ready.set(shard, columns);
    for (const w of this.take(shard)) this.answer(w, shard, columns);
  }

  /** The worker told to decode `shard` could not: each waiting worker tries itself (and reports its own error). */
  failed(shard: number): void {
    for (const w of this.take(shard)) this.answer(w, shard, null);
  }

  /** Shards decoded so far (for the report and tests). */
  get decodedShards(): number {
    return this.ready.size;
  }

  private take(shard: number): number[] {
    const queue = this.waiting.get(shard) ?? [];
    this.waiting.delete(shard);
    return queue;
  }
}
