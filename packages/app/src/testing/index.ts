export * from './fake-clock';
export * from './memory-logger';
