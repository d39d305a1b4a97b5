import type { DependencyContainer } from 'tsyringe';
import { TOKENS, type ClockPort } from '@maou/bench-use-cases';
import { StderrProgressAdapter, type LogLevel } from '@maou/bench-infra';

/**
 * Binds the progress port: bars or throttled lines on stderr, silent with `--log-level silent`.
 * Call after the clock is registered.
 * @public
 */
export const registerProgress = (child: DependencyContainer, options: { readonly logLevel: LogLevel }): void => {
  const clock = child.resolve<ClockPort>(TOKENS.Clock);
  child.registerInstance(TOKENS.Progress, new StderrProgressAdapter({ clock, enabled: options.logLevel !== 'silent' }));
};
