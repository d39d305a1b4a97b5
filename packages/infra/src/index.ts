export * from './logging/pino-logger.adapter';
export * from './clock/system-clock.adapter';
export * from './report/html/html-report.writers';
export * from './report/html/atomic-write';
export * from './report/html/dataloader-report-page';
export * from './progress/stderr-progress.adapter';
