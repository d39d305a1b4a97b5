// The use case's tsyringe decorators need the metadata polyfill when the class is defined, as in the package's index.
import 'reflect-metadata';
import type { BackendInfo, TrainerFactory } from '@maou/bench-engine/contracts';
import type { ComputeConfig, DataLoaderConfig } from '@maou/bench-domain';
import type { CalibrationStorePort } from '../ports/calibration-store.port';
import type { ClockPort } from '../ports/clock.port';
import type { DataLoaderPort } from '../ports/data-loader.port';
import type { DataSourcePort } from '../ports/data-source.port';
import type { HostEnvironment } from '../ports/environment.port';
import type { CpuCounters } from '../ports/resource-monitor.port';
import { BenchmarkTrainingUseCase } from '../use-cases/benchmark-training/benchmark-training.use-case';
import type { CalibrateLoaderUseCase } from '../use-cases/calibrate-loader/calibrate-loader.use-case';
import { MemoryCalibrationStore } from './memory-calibration-store';
import { MemoryLogger } from './memory-logger';

/** The host a test run reports. @public */
export const TEST_HOST: HostEnvironment = {
  node: 'v20',
  platform: 'linux',
  arch: 'x64',
  cpus: 2,
  cpu_model: 'test',
  memory_bytes: 1,
  tfjs_version: '4.22.0',
  maou_bench_version: '0.1.0',
};

/** What a test gives the training use case: the edges it is about; the rest is fixed. @public */
export interface TrainingUseCaseEdges {
  readonly clock: ClockPort;
  readonly backend: BackendInfo;
  readonly source: DataSourcePort;
  readonly loader: DataLoaderPort;
  readonly createTrainer: TrainerFactory;
  /** CPU counters for the contention check; none by default */
  readonly cpuCounters?: () => CpuCounters | null;
  /** where the machine's wander record lives; a fresh in-memory store by default */
  readonly store?: CalibrationStorePort;
  /** the backend each compute request starts, for runs that switch it; `backend` always by default */
  readonly activate?: (compute: ComputeConfig) => BackendInfo;
  /** the loader each loader configuration makes; `loader` always by default */
  readonly createLoader?: (config: DataLoaderConfig) => DataLoaderPort;
  /** the loader calibration; one that throws if asked by default */
  readonly calibrator?: CalibrateLoaderUseCase;
}

/**
 * `BenchmarkTrainingUseCase` over the given edges, on `TEST_HOST`, with resource sampling off and calibration off
 * unless one is given (it throws if asked: the e2e suite runs calibration for real).
 * @public
 */
export const trainingUseCaseOver = (edges: TrainingUseCaseEdges): BenchmarkTrainingUseCase =>
  new BenchmarkTrainingUseCase(
    edges.clock,
    new MemoryLogger(),
    { activate: async (compute) => edges.activate?.(compute) ?? edges.backend },
    { open: async () => edges.source },
    { create: async (_source, config) => edges.createLoader?.(config) ?? edges.loader },
    edges.createTrainer,
    { start: () => undefined, stop: async () => [], cpuCounters: edges.cpuCounters ?? (() => null) },
    { describe: () => TEST_HOST },
    edges.calibrator ??
      ({
        execute: async () => {
          throw new Error('calibration is off');
        },
      } as unknown as CalibrateLoaderUseCase),
    edges.store ?? new MemoryCalibrationStore(),
  );
