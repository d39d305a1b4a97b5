export * from './resources/cgroup-limits';
export * from './resources/address-space';
export * from './resources/js-heap';
export * from './resources/resource-detector.adapter';
export * from './resources/process-resource-monitor.adapter';
export * from './resources/gpu-query';
export * from './worker-threads/spawn-worker';
export * from './modules/require-module';
