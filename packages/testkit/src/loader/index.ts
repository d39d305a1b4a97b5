export * from './raw-stage-file';
