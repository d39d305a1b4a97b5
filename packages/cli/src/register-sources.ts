import type { DependencyContainer } from 'tsyringe';
import { TOKENS, type ClockPort, type LoggerPort, type ProgressPort } from '@maou/bench-app';
import { createSourceRegistry } from '@maou/bench-infra';

/**
 * Every datasource kind infra registers (local files, the embedded sample data, S3, GCS, BigQuery), reporting to this
 * container's logger, clock and progress; call after those are registered.
 */
export const registerSources = (child: DependencyContainer): void => {
  const logger = child.resolve<LoggerPort>(TOKENS.Logger);
  const clock = child.resolve<ClockPort>(TOKENS.Clock);
  const progress = child.resolve<ProgressPort>(TOKENS.Progress);
  child.registerInstance(TOKENS.DataSourceFactory, createSourceRegistry({ logger, clock, progress }));
};
