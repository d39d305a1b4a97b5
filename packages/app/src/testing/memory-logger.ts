import type { LogFields, LoggerPort } from '../ports/logger.port';

/** One captured log line. @public */
export interface LogLine {
  readonly level: 'debug' | 'info' | 'warn' | 'error';
  readonly fields: LogFields;
  readonly msg: string;
}

/** Keeps log lines in memory so tests can assert on them. @public */
export class MemoryLogger implements LoggerPort {
  constructor(
    readonly lines: LogLine[] = [],
    private readonly bindings: LogFields = {},
  ) {}
  debug(fields: LogFields, msg: string): void {
    this.push('debug', fields, msg);
  }
  info(fields: LogFields, msg: string): void {
    this.push('info', fields, msg);
  }
  warn(fields: LogFields, msg: string): void {
    this.push('warn', fields, msg);
  }
  error(fields: LogFields, msg: string): void {
    this.push('error', fields, msg);
  }
  child(bindings: LogFields): LoggerPort {
    return new MemoryLogger(this.lines, { ...this.bindings, ...bindings });
  }
  private push(level: LogLine['level'], fields: LogFields, msg: string): void {
    this.lines.push({ level, fields: { ...this.bindings, ...fields }, msg });
  }
}
