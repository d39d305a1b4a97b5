import { allocateBatch, fillBatchRows, type HostBatch, type StageColumns } from '@maou/bench-domain';

/**
 * Rows of a map-style dataset addressed by global index. `memory` mode hands in every shard up front;
 * `file` mode reads a shard the first time a batch needs it and keeps it.
 * @internal
 */
export class MapRowStore {
  private readonly cache = new Map<number, Promise<StageColumns>>();
  /** shard lookups served from the cache, and those that had to load the shard */
  readonly lookups = { hits: 0, misses: 0 };

  constructor(
    private readonly offsets: readonly number[],
    private readonly load: (shard: number) => Promise<StageColumns>,
    preloaded: readonly StageColumns[] = [],
  ) {
    preloaded.forEach((c, i) => this.cache.set(i, Promise.resolve(c)));
  }

  /** Shard holding a global row: the last offset not above it. */
  shardOf(row: number): number {
    let lo = 0;
    let hi = this.offsets.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.offsets[mid]! <= row) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  async gather(stage: HostBatch['stage'], rows: Uint32Array, reuse?: readonly ArrayBuffer[]): Promise<HostBatch> {
    const groups = new Map<number, number[]>();
    for (const row of rows) {
      const shard = this.shardOf(row);
      const local = row - this.offsets[shard]!;
      const g = groups.get(shard);
      if (g) g.push(local);
      else groups.set(shard, [local]);
    }
    const batch = allocateBatch(stage, rows.length, reuse);
    let at = 0;
    for (const [shard, local] of [...groups].sort((a, b) => a[0] - b[0])) {
      fillBatchRows(await this.columns(shard), local, batch, at);
      at += local.length;
    }
    return batch;
  }

  private columns(shard: number): Promise<StageColumns> {
    let c = this.cache.get(shard);
    if (c) this.lookups.hits++;
    else {
      this.lookups.misses++;
      c = this.load(shard);
      this.cache.set(shard, c);
    }
    return c;
  }
}
