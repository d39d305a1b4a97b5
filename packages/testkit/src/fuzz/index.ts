export * from './fuzz-mutations';
export * from './fuzz-runner';
export * from './fuzz-targets';
export * from './hostile-files';
