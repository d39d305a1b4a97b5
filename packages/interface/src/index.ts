export * from './benchmark-training/raw-options';
export * from './benchmark-training/to-benchmark-config';
export { describeGpuChoices, describeHostBackends } from './benchmark-training/choices';
export * from './benchmark-training/batch-study-options';
