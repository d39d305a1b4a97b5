/** Structured fields first, then a short message. @public */
export type LogFields = Readonly<Record<string, unknown>>;

/** Logging as the app needs it; adapters decide where lines go. @public */
export interface LoggerPort {
  debug(fields: LogFields, msg: string): void;
  info(fields: LogFields, msg: string): void;
  warn(fields: LogFields, msg: string): void;
  error(fields: LogFields, msg: string): void;
  child(bindings: LogFields): LoggerPort;
}
