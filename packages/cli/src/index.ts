// @maou/cli for code: the command line in-process (`run`), one training benchmark with every default adapter
// (`benchmarkTraining`), the composition root with per-port overrides (`createContainer`), and the JSON Schemas of the
// reports. Importing it loads reflect-metadata (the global Reflect.metadata API tsyringe needs) and runs nothing.
export { run } from './run';
export {
  benchmarkTraining,
  benchmarkTrainingStudy,
  type BatchStudyOptions,
  type BenchmarkTrainingOptions,
  type RunWiring,
} from './library/benchmark-training';
export { createContainer, type ContainerOptions, type PortOverrides, type Ports } from './composition-root';
export { BenchmarkRunError, UsageError } from './usage-error';
export { TOKENS } from '@maou/bench-app';
export type { BatchStudyReport, BenchmarkTrainingReport } from '@maou/bench-domain';
export { REPORT_SCHEMAS, reportSchemaPath, type ReportSchemaName } from './report-schemas/report-schemas';
