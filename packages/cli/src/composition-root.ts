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
} from '@maou/bench-app';
import { createTrainer } from '@maou/bench-engine';
import {
  DataLoaderFactoryAdapter,
  NodeEnvironmentAdapter,
  PinoLoggerAdapter,
  ProcessResourceMonitorAdapter,
  SystemClockAdapter,
  RecordIoAdapter,
  ResourceDetectorAdapter,
  SampleDataGeneratorAdapter,
  TfjsComputeBackendAdapter,
  dataParallelWhereSupported,
  plannedStepOnWebgpu,
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

/** The one place that maps tokens to adapters; each command gets its own child container. */
export const createContainer = (options: ContainerOptions): DependencyContainer => {
  const child = container.createChildContainer();
  const clock = new SystemClockAdapter();
  const logger = PinoLoggerAdapter.create(options.logLevel);
  child.registerInstance(TOKENS.Logger, logger);
  child.registerInstance(TOKENS.Clock, clock);
  child.registerInstance(TOKENS.Environment, new NodeEnvironmentAdapter(cliVersion()));
  child.registerInstance(TOKENS.ComputeBackend, new TfjsComputeBackendAdapter(BACKENDS));
  child.registerInstance(TOKENS.DataLoaderFactory, new DataLoaderFactoryAdapter({ logger }));
  child.registerInstance(
    TOKENS.TrainerFactory,
    plannedStepOnWebgpu(dataParallelWhereSupported(BACKENDS, createTrainer)),
  );
  child.registerInstance(TOKENS.ResourceMonitor, new ProcessResourceMonitorAdapter(clock));
  child.registerInstance(TOKENS.RecordIo, new RecordIoAdapter());
  child.registerInstance(TOKENS.SampleDataGenerator, new SampleDataGeneratorAdapter());
  registerProgress(child, options);
  registerCalibration(child, options.calibrationFile);
  registerSources(child);
  registerUseCases(child);
  return child;
};
