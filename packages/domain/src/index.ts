export * from './result';
export * from './data/stage';
export * from './data/stage-columns';
export * from './data/host-batch';
export * from './config/benchmark-config';
export * from './errors/validation-error';
export * from './stats/summary';
