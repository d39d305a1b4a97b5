export * from './fake-clock';
export * from './memory-logger';
export * from './recording-progress';
export * from './fake-loader-factory';
export * from './training-use-case';
export * from './plug-in-choices';
export * from './memory-calibration-store';
export * from './test-config';
