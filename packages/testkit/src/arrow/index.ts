export * from './arrow-test-helpers';
export * from './foreign-ipc';
export * from './ipc-frames';
export * from './sample-records';
