import type { DependencyContainer } from 'tsyringe';
import { TOKENS, type ClockPort, type LoggerPort } from '@maou/bench-app';
import { DataSourceRegistryAdapter, LocalFileSourceAdapter, cloudSourceOpener, ensureSampleDataset } from '@maou/bench-infra';

/** Every datasource kind: local files, the embedded sample data (generated once, then reused), S3, GCS, BigQuery. */
export const registerSources = (child: DependencyContainer, seed: number): void => {
  const logger = child.resolve<LoggerPort>(TOKENS.Logger);
  const clock = child.resolve<ClockPort>(TOKENS.Clock);
  const cloud = cloudSourceOpener({ logger, clock }, seed);
  const registry = new DataSourceRegistryAdapter()
    .register('local', async (spec, stage) => new LocalFileSourceAdapter(stage, spec.paths))
    .register('sample', async (spec, stage) => {
      const dir = `${spec.cacheDir}/stage${stage}-${spec.positions}-seed${spec.seed}`;
      const files = await ensureSampleDataset({ stage, dir, positions: spec.positions, seed: spec.seed });
      return new LocalFileSourceAdapter(stage, files);
    })
    .register('s3', cloud)
    .register('gcs', cloud)
    .register('bigquery', cloud);
  child.registerInstance(TOKENS.DataSourceFactory, registry);
};
