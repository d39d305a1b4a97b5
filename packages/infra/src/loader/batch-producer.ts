import { performance } from 'node:perf_hooks';
import { assembleBatch, type FileOpen, type HostBatch, type StageColumns } from '@maou/bench-domain';
import type { LoaderTask, ProducerSetup } from './loader-task';
import type { MapRowStore } from './map-row-store';
import { streamingReads } from './dataset-plan';
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
 * Yields the batches of one task in order. A streaming file (at Stage 2, a group of up to 10 files, as maou reads
 * them) is read, optionally row-shuffled, cut into batches and dropped before the next is read, so memory holds one
 * file (group) at a time whatever the dataset size. The first batch of each carries how long the read took (`opened`).
 * @internal
 */
export async function* produceBatches(task: LoaderTask, ctx: ProducerContext): AsyncGenerator<HostBatch> {
  const { batchSize, stage } = ctx.setup;
  if (task.kind === 'map') {
    for (const rows of task.batches) yield await ctx.store.gather(stage, rows, ctx.takeBuffers());
    return;
  }
  // this producer's own files, grouped as the pass's plan counts them (streamingReads)
  for (const files of streamingReads(task.files, stage, 1)) {
    const readStart = performance.now();
    const parts: StageColumns[] = [];
    for (const file of files) {
      const c = await ctx.readFile(file.path);
      if (c.stage !== stage) throw new Error(`${file.path}: holds stage ${c.stage} records, expected stage ${stage}`);
      parts.push(c);
    }
    let columns: StageColumns | null = parts.length === 1 ? parts[0]! : concatStage2(parts);
    parts.length = 0;
    const rowSeed = files[0]!.rowSeed;
    const order = rowSeed === null ? null : seededPermutation(columns.rows, rowSeed);
    const rows = columns.rows;
    // the consumer waits this long at the boundary, less what the loader holds ready (the estimator counts it)
    const opened: FileOpen = { files: files.length, readMs: performance.now() - readStart };
    for (let start = 0; start < rows; start += batchSize) {
      const end = Math.min(rows, start + batchSize);
      const idx = order ? order.subarray(start, end) : range(start, end);
      const batch = assembleBatch(columns, idx, ctx.takeBuffers());
      yield start === 0 ? { ...batch, opened } : batch;
    }
    columns = null;
  }
}

const concatBytes = (arrays: readonly Uint8Array[]): Uint8Array => {
  const out = new Uint8Array(arrays.reduce((n, a) => n + a.length, 0));
  let at = 0;
  for (const a of arrays) {
    out.set(a, at);
    at += a.length;
  }
  return out;
};

/** The rows of several Stage 2 files, one after another. */
const concatStage2 = (parts: readonly StageColumns[]): StageColumns => {
  const s2 = parts.map((p) => {
    if (p.stage !== 2) throw new Error(`stage ${p.stage} files are not grouped`);
    return p;
  });
  return {
    stage: 2,
    rows: s2.reduce((n, p) => n + p.rows, 0),
    boardIdPositions: concatBytes(s2.map((p) => p.boardIdPositions)),
    piecesInHand: concatBytes(s2.map((p) => p.piecesInHand)),
    legalMovesLabel: concatBytes(s2.map((p) => p.legalMovesLabel)),
  };
};

const range = (start: number, end: number): Uint32Array => {
  const out = new Uint32Array(end - start);
  for (let i = 0; i < out.length; i++) out[i] = start + i;
  return out;
};
