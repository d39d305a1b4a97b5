import { formatIssues, type ValidationIssue } from '@maou/bench-domain';

/**
 * Options that cannot run. Raised before any I/O, by the command line (exit code 2: the message, then one line
 * pointing to `--help`) and by `benchmarkTraining()` (`issues` names each option).
 * @public
 */
export class UsageError extends Error {
  readonly exitCode = 2;
  constructor(
    message: string,
    readonly issues: readonly ValidationIssue[] = [],
    /** the command path it concerns (`utility benchmark-training`), for the pointer to its `--help` */
    readonly command = '',
  ) {
    super(message);
    this.name = 'UsageError';
  }

  static of(issues: readonly ValidationIssue[], command = ''): UsageError {
    return new UsageError(formatIssues(issues), issues, command);
  }
}

/** A run that started and failed (exit code 1), or was stopped by a signal (130/143). @public */
export class BenchmarkRunError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
    this.name = 'BenchmarkRunError';
  }
}

/** The one line a usage error ends with. @public */
export const helpPointer = (command = ''): string => `Run 'maou ${command ? `${command} ` : ''}--help' for the flags.`;
