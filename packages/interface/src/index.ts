export * from './benchmark-training/raw-options';
export * from './benchmark-training/to-benchmark-config';
export * from './benchmark-training/batch-study-options';
