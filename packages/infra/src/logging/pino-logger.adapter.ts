import pino, { type Logger } from 'pino';
import type { LogFields, LoggerPort } from '@maou/bench-use-cases';

/** Log levels the command line accepts. @public */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';

// Secrets never reach a log line, whatever a caller passes.
const REDACT = [
  '*.secretAccessKey',
  '*.accessKeyId',
  '*.sessionToken',
  '*.credentials',
  '*.token',
  '*.password',
  'credentials',
  'token',
];

/** JSON lines on stderr through pino. @public */
export class PinoLoggerAdapter implements LoggerPort {
  private constructor(private readonly log: Logger) {}

  static create(level: LogLevel, destination: NodeJS.WritableStream = process.stderr): PinoLoggerAdapter {
    return new PinoLoggerAdapter(
      pino({ level, base: { app: 'maou' }, redact: { paths: REDACT, censor: '[redacted]' } }, destination),
    );
  }

  debug(fields: LogFields, msg: string): void {
    this.log.debug(fields, msg);
  }
  info(fields: LogFields, msg: string): void {
    this.log.info(fields, msg);
  }
  warn(fields: LogFields, msg: string): void {
    this.log.warn(fields, msg);
  }
  error(fields: LogFields, msg: string): void {
    this.log.error(fields, msg);
  }
  child(bindings: LogFields): LoggerPort {
    return new PinoLoggerAdapter(this.log.child(bindings));
  }
}
