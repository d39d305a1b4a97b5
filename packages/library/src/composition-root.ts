import 'reflect-metadata';
import os from 'node:os';
import { join } from 'node:path';
import {
  BatchStudyUseCase,
  BenchmarkDataloaderUseCase,
  BenchmarkIoUseCase,
  BenchmarkTrainingUseCase,
  CalibrateLoaderUseCase,
  CompareBenchmarksUseCase,
  GenerateSampleDataUseCase,
  TOKENS,
  useCaseContainer,
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
  type DependencyContainer,
} from '@maou/bench-use-cases';
import { createTrainer } from '@maou/bench-engine';
import type { TrainerFactory } from '@maou/bench-engine/contracts';
import { TfjsComputeBackendAdapter } from '@maou/bench-compute';
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
import { shippedPlugIns, type PlugIns } from './plug-ins';
import { registerProgress } from './register-progress';
import { registerSources } from './register-sources';
import { packageVersion } from './package-version';
import { registerCalibration } from './register-calibration';

/** Options every command shares. */
export interface GlobalOptions {
  readonly logLevel: LogLevel;
}

/** What the container is built from: the global flags, the calibration file a training run names, the plug-ins. */
export interface ContainerOptions extends GlobalOptions {
  readonly calibrationFile?: string;
  /** the backends and datasources the run may use; the shipped ones when absent */
  readonly plugIns?: PlugIns;
  /** progress bars on stderr (the `maou` binary's console); a library run draws none unless given a Progress port */
  readonly progressOnStderr?: boolean;
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

/**
 * The per-user cache where sources keep data they generate (the embedded sample data), and how a message names it
 * when no flag set it. Resource-driven defaults: `planResources`.
 */
export const machineCache = (): { readonly dir: string; readonly origin: string } =>
  process.env.MAOU_BENCH_CACHE !== undefined
    ? {
        dir: process.env.MAOU_BENCH_CACHE,
        origin: 'the sample cache (MAOU_BENCH_CACHE; set --sample-cache-dir to use another)',
      }
    : {
        dir: join(os.homedir(), '.cache', 'maou-bench', 'sample'),
        origin:
          'the sample cache (default ~/.cache/maou-bench/sample; set --sample-cache-dir or MAOU_BENCH_CACHE to use another)',
      };

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
  const child = useCaseContainer.createChildContainer();
  const { backends, sources } = options.plugIns ?? shippedPlugIns();
  const bind = <K extends keyof Ports>(key: K, make: () => Ports[K]): Ports[K] => {
    const adapter = overrides[key] ?? make();
    child.registerInstance(TOKENS[key], adapter);
    return adapter;
  };
  const clock = bind('Clock', () => new SystemClockAdapter());
  const logger = bind('Logger', () => PinoLoggerAdapter.create(options.logLevel));
  bind('Environment', () => new NodeEnvironmentAdapter(packageVersion()));
  bind('ComputeBackend', () => new TfjsComputeBackendAdapter(backends));
  bind('DataLoaderFactory', () => new DataLoaderFactoryAdapter({ logger }));
  bind('TrainerFactory', () => backends.trainerFactory(createTrainer));
  bind('ResourceMonitor', () => new ProcessResourceMonitorAdapter(clock));
  bind('RecordIo', () => new RecordIoAdapter());
  bind('SampleDataGenerator', () => new SampleDataGeneratorAdapter());
  if (overrides.Progress) child.registerInstance(TOKENS.Progress, overrides.Progress);
  else registerProgress(child, options);
  if (overrides.CalibrationStore) child.registerInstance(TOKENS.CalibrationStore, overrides.CalibrationStore);
  else registerCalibration(child, options.calibrationFile);
  if (overrides.DataSourceFactory) child.registerInstance(TOKENS.DataSourceFactory, overrides.DataSourceFactory);
  else registerSources(child, sources);
  registerUseCases(child);
  return child;
};
