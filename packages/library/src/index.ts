// @maou/bench-app, what a service imports: the entry points with every default adapter (benchmarkTraining, the batch
// study, the dataloader benchmark, compare), the container factory with per-port overrides, the report schemas, and
// everything of @maou/bench-use-cases (use cases, ports, TOKENS) for a service that wires its own adapters.
// Importing it loads reflect-metadata (the global Reflect.metadata API tsyringe needs) and runs nothing.
import './tfjs-copies'; // first: our tfjs-core copies load before any other module of ours needs one
import 'reflect-metadata';

export * from '@maou/bench-use-cases';
export {
  benchmarkTraining,
  benchmarkTrainingStudy,
  type BatchStudyOptions,
  type BenchmarkTrainingOptions,
  type RunWiring,
} from './benchmark-training';
export { benchmarkTune, type BenchmarkTuneOptions } from './benchmark-tune';
export { benchmarkDataloader, type BenchmarkDataloaderOptions } from './benchmark-dataloader';
export type { BenchmarkDataloaderResult } from './commands/benchmark-dataloader.output';
export { benchmarkCompare, type BenchmarkCompareOptions } from './benchmark-compare';
export type { OneOrMore, SourcePlugInOptions } from './source-options';
export { createContainer, type ContainerOptions, type PortOverrides, type Ports } from './composition-root';
export { shippedPlugIns, type PlugIns } from './plug-ins';
export { BenchmarkRunError, UsageError } from './usage-error';
export type { BatchStudyReport, BenchmarkTrainingReport, TuneReport } from '@maou/bench-domain';
export { REPORT_SCHEMAS, reportSchemaPath, type ReportSchemaName } from './report-schemas/report-schemas';
