export * from './raw-stage-file';
export * from './transform-cost';
