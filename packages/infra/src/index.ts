export * from './logging/pino-logger.adapter';
export * from './clock/system-clock.adapter';
