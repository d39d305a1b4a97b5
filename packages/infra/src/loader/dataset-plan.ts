import type { ShardRef } from '@maou/bench-use-cases';
import { maouFileSplit, type Stage } from '@maou/bench-domain';
import { mixSeed, seededPermutation } from './seeded-permutation';

/** Train and validation shards of a streaming dataset. @internal */
export interface FileSplit {
  readonly train: readonly ShardRef[];
  readonly validation: readonly ShardRef[];
}

/**
 * File-level split, as maou's (maouFileSplit): the paths in Python's order, shuffled by `random.Random(42)` whatever
 * `--seed` says, `max(1, floor(n × ratio))` to validation (none when ratio is 0), at least one file left for training.
 * @internal
 */
export const fileLevelSplit = (shards: readonly ShardRef[], ratio: number): FileSplit =>
  maouFileSplit(shards, (s) => s.path, ratio);

/** Row-level split of a map-style dataset: seeded shuffle, train = first floor(N × (1 − ratio)). @internal */
export const rowLevelSplit = (
  totalRows: number,
  ratio: number,
  seed: number,
): { train: Uint32Array; validation: Uint32Array } => {
  const perm = seededPermutation(totalRows, mixSeed(seed, 0x7e57));
  const split = Math.floor(totalRows * (1 - ratio));
  return { train: perm.subarray(0, split), validation: perm.subarray(split) };
};

/**
 * One file order per epoch, shared by every worker, then dealt round-robin: worker k reads positions k, k+W, …
 * so no file is read twice and none is skipped (maou's workers each permuted with their own seed and overlapped).
 * @internal
 */
export const epochFileShards = (
  files: number,
  workers: number,
  seed: number,
  epoch: number,
  shuffle: boolean,
): number[][] => {
  const order = shuffle
    ? Array.from(seededPermutation(files, mixSeed(seed, epoch, 0xf11e)))
    : Array.from({ length: files }, (_, i) => i);
  const shards: number[][] = Array.from({ length: Math.max(1, workers) }, () => []);
  order.forEach((file, i) => shards[i % shards.length]!.push(file));
  return shards;
};

/** Files maou's Stage 2 streaming dataset concatenates before cutting batches (`_FILES_PER_CONCAT`). @internal */
export const STAGE2_FILES_PER_GROUP = 10;

/**
 * The reads of a streaming pass, each the files it takes in: every file alone; at Stage 2, as in maou, each
 * producer's files (dealt round-robin) in groups of up to 10, concatenated before batching.
 * @internal
 */
export const streamingReads = <T>(shards: readonly T[], stage: Stage, producers: number): T[][] => {
  if (stage !== 2) return shards.map((s) => [s]);
  const W = Math.max(1, producers);
  const reads: T[][] = [];
  for (let w = 0; w < W; w++) {
    const mine = shards.filter((_, i) => i % W === w);
    for (let g = 0; g < mine.length; g += STAGE2_FILES_PER_GROUP) reads.push(mine.slice(g, g + STAGE2_FILES_PER_GROUP));
  }
  return reads;
};

/**
 * Batches of a streaming pass: each read (streamingReads) is cut on its own and its last batch may be short, so at
 * Stage 2 the short batch comes once per group.
 * @internal
 */
export const streamingBatchCount = (
  shards: readonly ShardRef[],
  batchSize: number,
  stage: Stage,
  producers: number,
): number =>
  streamingReads(shards, stage, producers).reduce(
    (total, read) => total + Math.ceil(read.reduce((n, s) => n + s.rows, 0) / batchSize),
    0,
  );

/** Map-style epoch: seeded row order (train only), cut into batches; train drops the short tail. @internal */
export const mapStyleBatches = (
  rows: Uint32Array,
  batchSize: number,
  opts: { shuffle: boolean; dropLast: boolean; seed: number; epoch: number },
): Uint32Array[] => {
  let order = rows;
  if (opts.shuffle) {
    const perm = seededPermutation(rows.length, mixSeed(opts.seed, opts.epoch, 0xba7c));
    order = perm.map((i) => rows[i]!);
  }
  const full = Math.floor(order.length / batchSize);
  const count = opts.dropLast ? full : Math.ceil(order.length / batchSize);
  return Array.from({ length: count }, (_, b) =>
    order.slice(b * batchSize, Math.min(order.length, (b + 1) * batchSize)),
  );
};
