import type { StageColumns } from '@maou/bench-domain';
import { toSharedColumns } from './shared-columns';
import type { FromWorker } from './worker-protocol';

/**
 * A loader worker's side of `SharedShardBroker`: asks the main thread for a shard, and when told to, decodes it
 * into shared memory and hands it back for the other workers.
 * @internal
 */
export class SharedShardClient {
  private readonly pending = new Map<number, (columns: StageColumns | null) => void>();

  constructor(
    private readonly post: (m: FromWorker) => void,
    private readonly decode: (shard: number) => Promise<StageColumns>,
  ) {}

  async load(shard: number): Promise<StageColumns> {
    const given = await new Promise<StageColumns | null>((resolve) => {
      this.pending.set(shard, resolve);
      this.post({ type: 'shard-need', shard });
    });
    if (given) return given;
    try {
      const columns = toSharedColumns(await this.decode(shard));
      this.post({ type: 'shard-loaded', shard, columns });
      return columns;
    } catch (e) {
      this.post({ type: 'shard-failed', shard });
      throw e;
    }
  }

  /** The main thread's answer to `load`. */
  answer(shard: number, columns: StageColumns | null): void {
    const resolve = this.pending.get(shard);
    this.pending.delete(shard);
    resolve?.(columns);
  }
}
