import type { DependencyContainer } from 'tsyringe';
import { TOKENS, sampleDataProgress, type ClockPort, type LoggerPort, type ProgressPort } from '@maou/bench-app';
import { DataSourceRegistryAdapter, LocalFileSourceAdapter, cloudSourceOpener, ensureSampleDataset } from '@maou/bench-infra';

/**
 * Every datasource kind: local files, the embedded sample data (generated once, then reused), S3, GCS, BigQuery.
 * Generation and downloads report to the progress port; call after the clock, logger and progress are registered.
 */
export const registerSources = (child: DependencyContainer): void => {
  const logger = child.resolve<LoggerPort>(TOKENS.Logger);
  const clock = child.resolve<ClockPort>(TOKENS.Clock);
  const progress = child.resolve<ProgressPort>(TOKENS.Progress);
  const cloud = cloudSourceOpener({ logger, clock, progress });
  const registry = new DataSourceRegistryAdapter()
    .register('local', async (spec, stage) => new LocalFileSourceAdapter(stage, spec.paths))
    .register('sample', async (spec, stage) => {
      const dir = `${spec.cacheDir}/stage${stage}-${spec.positions}-seed${spec.seed}`;
      // A reused cache never calls onProgress, so no task (and no line) appears then.
      const generation = sampleDataProgress(progress, `sample data (stage ${stage})`);
      try {
        const files = await ensureSampleDataset({ stage, dir, positions: spec.positions, seed: spec.seed, onProgress: generation.onProgress });
        generation.finish();
        return new LocalFileSourceAdapter(stage, files);
      } catch (e) {
        generation.finish('failed');
        throw e;
      }
    })
    .register('s3', cloud)
    .register('gcs', cloud)
    .register('bigquery', cloud);
  child.registerInstance(TOKENS.DataSourceFactory, registry);
};
