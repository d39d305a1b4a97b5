/** Injection tokens, one symbol per port. @public */
export const TOKENS = {
  Clock: Symbol.for('maou.ClockPort'),
  Logger: Symbol.for('maou.LoggerPort'),
  DataSourceFactory: Symbol.for('maou.DataSourceFactoryPort'),
  Environment: Symbol.for('maou.EnvironmentPort'),
  TrainerFactory: Symbol.for('maou.TrainerFactory'),
  DataLoaderFactory: Symbol.for('maou.DataLoaderFactoryPort'),
  ComputeBackend: Symbol.for('maou.ComputeBackendPort'),
  ResourceMonitor: Symbol.for('maou.ResourceMonitorPort'),
  CalibrationStore: Symbol.for('maou.CalibrationStorePort'),
  Progress: Symbol.for('maou.ProgressPort'),
  RecordIo: Symbol.for('maou.RecordIoPort'),
  SampleDataGenerator: Symbol.for('maou.SampleDataGeneratorPort'),
} as const;
