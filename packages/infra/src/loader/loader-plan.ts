import type { ShardRef, Split } from '@maou/bench-use-cases';
import type { DataLoaderConfig, Stage } from '@maou/bench-domain';
import { epochFileShards, fileLevelSplit, mapStyleBatches, rowLevelSplit, streamingBatchCount } from './dataset-plan';
import type { LoaderTask } from './loader-task';
import { mixSeed } from './seeded-permutation';

/** How a dataset is read and split, fixed when the loader is built. @internal */
export type LoaderPlan =
  | {
      readonly mode: 'streaming';
      readonly shards: readonly ShardRef[];
      readonly files: Readonly<Record<Split, readonly ShardRef[]>>;
    }
  | {
      readonly mode: 'map-style';
      readonly shards: readonly ShardRef[];
      readonly offsets: readonly number[];
      readonly rows: Readonly<Record<Split, Uint32Array>>;
    };

/** Streaming with two or more files when asked for; map-style otherwise. @internal */
export const planDataset = (shards: readonly ShardRef[], config: DataLoaderConfig): LoaderPlan => {
  if (config.streaming && shards.length >= 2) {
    const split = fileLevelSplit(shards, config.testRatio);
    return { mode: 'streaming', shards, files: { train: split.train, validation: split.validation } };
  }
  const offsets: number[] = [];
  let total = 0;
  for (const s of shards) {
    offsets.push(total);
    total += s.rows;
  }
  const split = rowLevelSplit(total, config.testRatio, config.seed);
  return { mode: 'map-style', shards, offsets, rows: { train: split.train, validation: split.validation } };
};

/**
 * Whether a map-style training pass drops its short last batch: maou's Stage 3 loader does (`drop_last=True`), its
 * Stage 1 and 2 loaders keep it. Validation always keeps it.
 */
const dropsLast = (split: Split, stage: Stage): boolean => split === 'train' && stage === 3;

/** Batches and samples of a full pass over a split. @internal */
export const passSize = (
  plan: LoaderPlan,
  split: Split,
  batchSize: number,
  stage: Stage,
  producers = 1,
): { batches: number; samples: number } => {
  if (plan.mode === 'streaming') {
    const files = plan.files[split];
    return {
      batches: streamingBatchCount(files, batchSize, stage, producers),
      samples: files.reduce((s, f) => s + f.rows, 0),
    };
  }
  const n = plan.rows[split].length;
  return dropsLast(split, stage)
    ? { batches: Math.floor(n / batchSize), samples: Math.floor(n / batchSize) * batchSize }
    : { batches: Math.ceil(n / batchSize), samples: n };
};

/**
 * The task of each producer for one pass. Streaming: one shared file order for the epoch dealt round-robin to the
 * producers. Map-style: batch k goes to producer k mod W, so round-robin consumption gives the same order for any W.
 * @internal
 */
export const passTasks = (
  plan: LoaderPlan,
  split: Split,
  epoch: number,
  producers: number,
  config: DataLoaderConfig,
  stage: Stage,
): LoaderTask[] => {
  const shuffle = config.shuffle && split === 'train';
  const W = Math.max(1, producers);
  if (plan.mode === 'streaming') {
    const files = plan.files[split];
    const shards = epochFileShards(files.length, W, config.seed, epoch, shuffle);
    return shards.map((idx) => ({
      kind: 'stream',
      files: idx.map((i) => ({ path: files[i]!.path, rowSeed: shuffle ? mixSeed(config.seed, epoch, i, 0x20) : null })),
    }));
  }
  const batches = mapStyleBatches(plan.rows[split], config.batchSize, {
    shuffle,
    dropLast: dropsLast(split, stage),
    seed: config.seed,
    epoch,
  });
  return Array.from({ length: W }, (_, k) => ({ kind: 'map', batches: batches.filter((_, b) => b % W === k) }));
};
