import { assembleBatch, type HostBatch, type StageColumns } from '@maou/bench-domain';
import type { LoaderTask, ProducerSetup } from './loader-task';
import type { MapRowStore } from './map-row-store';
import { seededPermutation } from './seeded-permutation';

/** Everything a producer needs besides the task; the same code runs in the main thread and in workers. @internal */
export interface ProducerContext {
  readonly setup: ProducerSetup;
  readonly readFile: (path: string) => Promise<StageColumns>;
  readonly store: MapRowStore;
  /** buffers to write the next batch into (pinned pool), or undefined for fresh memory */
  readonly takeBuffers: () => readonly ArrayBuffer[] | undefined;
}

/**
 * Yields the batches of one task in order. A streaming file is read, optionally row-shuffled, cut into batches and
 * dropped before the next file is read, so memory holds one file at a time whatever the dataset size.
 * @internal
 */
export async function* produceBatches(task: LoaderTask, ctx: ProducerContext): AsyncGenerator<HostBatch> {
  const { batchSize, stage } = ctx.setup;
  if (task.kind === 'map') {
    for (const rows of task.batches) yield await ctx.store.gather(stage, rows, ctx.takeBuffers());
    return;
  }
  for (const file of task.files) {
    let columns: StageColumns | null = await ctx.readFile(file.path);
    if (columns.stage !== stage)
      throw new Error(`${file.path}: holds stage ${columns.stage} records, expected stage ${stage}`);
    const order = file.rowSeed === null ? null : seededPermutation(columns.rows, file.rowSeed);
    const rows = columns.rows;
    for (let start = 0; start < rows; start += batchSize) {
      const end = Math.min(rows, start + batchSize);
      const idx = order ? order.subarray(start, end) : range(start, end);
      yield assembleBatch(columns, idx, ctx.takeBuffers());
    }
    columns = null;
  }
}

const range = (start: number, end: number): Uint32Array => {
  const out = new Uint32Array(end - start);
  for (let i = 0; i < out.length; i++) out[i] = start + i;
  return out;
};
