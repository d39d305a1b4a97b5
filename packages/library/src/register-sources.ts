import type { DependencyContainer } from '@maou/bench-use-cases';
import { TOKENS, type ClockPort, type LoggerPort, type ProgressPort } from '@maou/bench-use-cases';
import { DataSourceRegistryAdapter, type SourceRegistry } from '@maou/bench-infra';

/**
 * The registered datasources (infra's shipped ones and any the run's plug-ins add), reporting to this container's
 * logger, clock and progress; call after those are registered.
 */
export const registerSources = (child: DependencyContainer, sources: SourceRegistry): void => {
  const logger = child.resolve<LoggerPort>(TOKENS.Logger);
  const clock = child.resolve<ClockPort>(TOKENS.Clock);
  const progress = child.resolve<ProgressPort>(TOKENS.Progress);
  child.registerInstance(TOKENS.DataSourceFactory, new DataSourceRegistryAdapter(sources, { logger, clock, progress }));
};
