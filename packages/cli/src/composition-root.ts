import 'reflect-metadata';
import os from 'node:os';
import { join } from 'node:path';
import { container, type DependencyContainer } from 'tsyringe';
import { TOKENS, createTrainer } from '@maou/bench-app';
import {
  DataLoaderFactoryAdapter, NodeEnvironmentAdapter, PinoLoggerAdapter, ProcessResourceMonitorAdapter, SystemClockAdapter,
  TfjsComputeBackendAdapter, createBackendRegistry, dataParallelOnWasm, plannedStepOnWebgpu, type LogLevel,
} from '@maou/bench-infra';
import { registerProgress } from './register-progress';
import { registerSources } from './register-sources';
import { cliVersion } from './completion';

/** Options every command shares. */
export interface GlobalOptions {
  readonly logLevel: LogLevel;
}

/** Where the embedded sample data is generated and reused: a per-user cache. Resource-driven defaults: `planResources`. */
export const machineDefaults = (): { sampleCacheDir: string } => ({
  sampleCacheDir: process.env.MAOU_BENCH_CACHE ?? join(os.homedir(), '.cache', 'maou-bench', 'sample'),
});

/** The one place that maps tokens to adapters; each command gets its own child container. */
export const createContainer = (options: GlobalOptions): DependencyContainer => {
  const child = container.createChildContainer();
  const clock = new SystemClockAdapter();
  const logger = PinoLoggerAdapter.create(options.logLevel);
  child.registerInstance(TOKENS.Logger, logger);
  child.registerInstance(TOKENS.Clock, clock);
  child.registerInstance(TOKENS.Environment, new NodeEnvironmentAdapter(cliVersion()));
  child.registerInstance(TOKENS.ComputeBackend, new TfjsComputeBackendAdapter(createBackendRegistry()));
  child.registerInstance(TOKENS.DataLoaderFactory, new DataLoaderFactoryAdapter({ logger }));
  child.registerInstance(TOKENS.TrainerFactory, plannedStepOnWebgpu(dataParallelOnWasm(createTrainer)));
  child.registerInstance(TOKENS.ResourceMonitor, new ProcessResourceMonitorAdapter(clock));
  registerProgress(child, options);
  registerSources(child);
  return child;
};
