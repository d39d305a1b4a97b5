import type { DependencyContainer } from '@maou/bench-use-cases';
import { TOKENS, type ClockPort } from '@maou/bench-use-cases';
import { StderrProgressAdapter, type LogLevel } from '@maou/bench-infra';

/**
 * Binds the progress port: bars or throttled lines on stderr where the `maou` binary asks (`progressOnStderr`), unless
 * `--log-level silent`; nothing otherwise (a library run draws no progress unless it is given a Progress adapter).
 * Call after the clock is registered.
 * @public
 */
export const registerProgress = (
  child: DependencyContainer,
  options: { readonly logLevel: LogLevel; readonly progressOnStderr?: boolean },
): void => {
  const clock = child.resolve<ClockPort>(TOKENS.Clock);
  const enabled = options.progressOnStderr === true && options.logLevel !== 'silent';
  child.registerInstance(TOKENS.Progress, new StderrProgressAdapter({ clock, enabled }));
};
