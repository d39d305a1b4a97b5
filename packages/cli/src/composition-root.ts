import 'reflect-metadata';
import { container, type DependencyContainer } from 'tsyringe';
import { TOKENS } from '@maou/bench-app';
import { PinoLoggerAdapter, SystemClockAdapter, type LogLevel } from '@maou/bench-infra';

/** Options every command shares. */
export interface GlobalOptions {
  readonly logLevel: LogLevel;
}

/** The one place that maps tokens to adapters; each command gets its own child container. */
export const createContainer = (options: GlobalOptions): DependencyContainer => {
  const child = container.createChildContainer();
  child.registerInstance(TOKENS.Logger, PinoLoggerAdapter.create(options.logLevel));
  child.registerInstance(TOKENS.Clock, new SystemClockAdapter());
  return child;
};
