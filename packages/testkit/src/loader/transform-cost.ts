import { performance } from 'node:perf_hooks';
import type { DataLoaderFactoryPort, DataSourcePort } from '@maou/bench-use-cases';
import type { Stage, StageColumns } from '@maou/bench-domain';
import { DataLoaderAdapter, readStageFile } from '@maou/bench-infra';

/**
 * Test-only stand-in for a slow per-row transform, the work a loader does when its records are not features yet
 * (this product's records need none, so no real setting makes batch preparation slow): each shard read costs this
 * many microseconds of CPU per row, in whichever thread reads it. Read from the environment, which loader worker
 * threads inherit; unset, nothing is added.
 */
export const TRANSFORM_COST_ENV = 'MAOU_TEST_TRANSFORM_US_PER_ROW';

const transform = (columns: StageColumns): StageColumns => {
  const until = performance.now() + (columns.rows * Number(process.env[TRANSFORM_COST_ENV] ?? 0)) / 1000;
  // busy, as a transform keeps its thread busy (a timer would leave the core to the step)
  while (performance.now() < until);
  return columns;
};

/** `readStageFile`, then the transform: the reader of loader workers. */
export const readStageFileTransformed = async (path: string, stage: Stage): Promise<StageColumns> =>
  transform(await readStageFile(path, stage));

const TRANSFORMED_READER = { module: __filename, exportName: 'readStageFileTransformed' } as const;

/**
 * The data loaders of a run whose every shard read pays the transform: on the main thread through the source's
 * `read`, in loader workers through their reader. With shards of one batch each, that is a cost per batch.
 */
export const transformCostLoaders = (): DataLoaderFactoryPort => ({
  create: (source: DataSourcePort, config) => {
    const transformed: DataSourcePort = {
      stage: source.stage,
      describe: () => source.describe(),
      shards: () => source.shards(),
      read: async (shard) => transform(await source.read(shard)),
      ...(source.materialize ? { materialize: (shard) => source.materialize!(shard) } : {}),
      ioStats: () => source.ioStats(),
    };
    return DataLoaderAdapter.create(transformed, config, { reader: TRANSFORMED_READER });
  },
});
