export * from './benchmark-training/raw-options';
export * from './benchmark-training/to-benchmark-config';
