import 'reflect-metadata';
import os from 'node:os';
import { join } from 'node:path';
import { container, type DependencyContainer } from 'tsyringe';
import {
  BatchStudyUseCase,
  BenchmarkDataloaderUseCase,
  BenchmarkIoUseCase,
  BenchmarkTrainingUseCase,
  CalibrateLoaderUseCase,
  CompareBenchmarksUseCase,
  GenerateSampleDataUseCase,
  TOKENS,
  type CalibrationStorePort,
  type ClockPort,
  type ComputeBackendPort,
  type DataLoaderFactoryPort,
  type DataSourceFactoryPort,
  type EnvironmentPort,
  type LoggerPort,
  type ProgressPort,
  type RecordIoPort,
  type ResourceMonitorPort,
  type SampleDataGeneratorPort,
} from '@maou/bench-app';
import { createTrainer, type TrainerFactory } from '@maou/bench-engine';
import { TfjsComputeBackendAdapter, dataParallelWhereSupported, plannedStepOnWebgpu } from '@maou/bench-compute';
import { ProcessResourceMonitorAdapter, ResourceDetectorAdapter } from '@maou/bench-host';
import {
  DataLoaderFactoryAdapter,
  NodeEnvironmentAdapter,
  PinoLoggerAdapter,
  SystemClockAdapter,
  RecordIoAdapter,
  SampleDataGeneratorAdapter,
  type LogLevel,
} from '@maou/bench-infra';
import { BACKENDS } from './backends';
import { registerProgress } from './register-progress';
import { registerSources } from './register-sources';
import { cliVersion } from './completion';
import { registerCalibration } from './register-calibration';

/** Options every command shares. */
export interface GlobalOptions {
  readonly logLevel: LogLevel;
}

/** What the container is built from: the global flags, and the calibration file a training run names. */
export interface ContainerOptions extends GlobalOptions {
  readonly calibrationFile?: string;
}

// Every use case a command resolves, built by the container from the ports bound below (a new one per resolve).
const registerUseCases = (child: DependencyContainer): void => {
  child.register(BenchmarkTrainingUseCase, { useClass: BenchmarkTrainingUseCase });
  child.register(BatchStudyUseCase, { useClass: BatchStudyUseCase });
  child.register(CalibrateLoaderUseCase, { useClass: CalibrateLoaderUseCase });
  child.register(BenchmarkDataloaderUseCase, { useClass: BenchmarkDataloaderUseCase });
  child.register(BenchmarkIoUseCase, { useClass: BenchmarkIoUseCase });
  child.register(GenerateSampleDataUseCase, { useClass: GenerateSampleDataUseCase });
  child.register(CompareBenchmarksUseCase, { useClass: CompareBenchmarksUseCase });
};

/** Where the embedded sample data is generated and reused: a per-user cache. Resource-driven defaults: `planResources`. */
export const machineDefaults = (): { sampleCacheDir: string } => ({
  sampleCacheDir: process.env.MAOU_BENCH_CACHE ?? join(os.homedir(), '.cache', 'maou-bench', 'sample'),
});

/**
 * The detector of this process's resource limits, for `planResources`: the commands plan their defaults while
 * validating, before a container exists, so it is built here rather than by its caller.
 */
export const machineResources = (): ResourceDetectorAdapter => new ResourceDetectorAdapter();

/** Every port the container binds, by its `TOKENS` key. @public */
export interface Ports {
  readonly Clock: ClockPort;
  readonly Logger: LoggerPort;
  readonly Environment: EnvironmentPort;
  readonly ComputeBackend: ComputeBackendPort;
  readonly DataLoaderFactory: DataLoaderFactoryPort;
  readonly TrainerFactory: TrainerFactory;
  readonly ResourceMonitor: ResourceMonitorPort;
  readonly RecordIo: RecordIoPort;
  readonly SampleDataGenerator: SampleDataGeneratorPort;
  readonly Progress: ProgressPort;
  readonly CalibrationStore: CalibrationStorePort;
  readonly DataSourceFactory: DataSourceFactoryPort;
}

/** Adapters that replace the default ones, by port; every port not named keeps its real adapter. @public */
export type PortOverrides = Partial<Ports>;

/**
 * The one place that maps tokens to adapters; each command (and each library run) gets its own child container.
 * An override replaces that port's adapter; the defaults built after it (the loader factory, the sources, progress…)
 * are given the overriding clock, logger and progress, so a swapped port is seen everywhere.
 * @public
 */
export const createContainer = (options: ContainerOptions, overrides: PortOverrides = {}): DependencyContainer => {
  const child = container.createChildContainer();
  const bind = <K extends keyof Ports>(key: K, make: () => Ports[K]): Ports[K] => {
    const adapter = overrides[key] ?? make();
    child.registerInstance(TOKENS[key], adapter);
    return adapter;
  };
  const clock = bind('Clock', () => new SystemClockAdapter());
  const logger = bind('Logger', () => PinoLoggerAdapter.create(options.logLevel));
  bind('Environment', () => new NodeEnvironmentAdapter(cliVersion()));
  bind('ComputeBackend', () => new TfjsComputeBackendAdapter(BACKENDS));
  bind('DataLoaderFactory', () => new DataLoaderFactoryAdapter({ logger }));
  bind('TrainerFactory', () => plannedStepOnWebgpu(dataParallelWhereSupported(BACKENDS, createTrainer)));
  bind('ResourceMonitor', () => new ProcessResourceMonitorAdapter(clock));
  bind('RecordIo', () => new RecordIoAdapter());
  bind('SampleDataGenerator', () => new SampleDataGeneratorAdapter());
  if (overrides.Progress) child.registerInstance(TOKENS.Progress, overrides.Progress);
  else registerProgress(child, options);
  if (overrides.CalibrationStore) child.registerInstance(TOKENS.CalibrationStore, overrides.CalibrationStore);
  else registerCalibration(child, options.calibrationFile);
  if (overrides.DataSourceFactory) child.registerInstance(TOKENS.DataSourceFactory, overrides.DataSourceFactory);
  else registerSources(child);
  registerUseCases(child);
  return child;
};
