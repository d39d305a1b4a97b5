// @maou/bench-use-cases: the use cases, the ports their adapters implement (with their injection tokens), and what the
// cli needs to render their results. The training engine is @maou/bench-engine; test doubles are
// @maou/bench-use-cases/testing; @maou/bench-app re-exports all of it beside the entry points.

// The use cases' tsyringe decorators read metadata when their classes are defined: load the polyfill first, here,
// so that importing this package never depends on the importer having loaded it.
import 'reflect-metadata';

// Ports and tokens.
export * from './ports/tokens';
export * from './ports/use-case-container';
export * from './ports/clock.port';
export * from './ports/logger.port';
export * from './ports/progress.port';
export * from './ports/environment.port';
export * from './ports/data-source.port';
export * from './ports/data-source-factory.port';
export * from './ports/data-loader.port';
export * from './ports/compute-backend.port';
export * from './ports/resource-monitor.port';
export * from './ports/calibration-store.port';
export * from './use-cases/benchmark-io/record-io.port';
export * from './use-cases/generate-sample-data/sample-data-generator.port';

// benchmark-training (and its batch-size / learning-rate study).
export * from './use-cases/benchmark-training/benchmark-training.input';
export * from './use-cases/benchmark-training/benchmark-training.errors';
export * from './use-cases/benchmark-training/benchmark-training.use-case';
export { interruptionText } from './use-cases/benchmark-training/interruption';
export * from './use-cases/batch-study/batch-study.input';
export * from './use-cases/batch-study/batch-study.use-case';

// benchmark-dataloader, and the loader calibration it and benchmark-training share.
export * from './use-cases/benchmark-dataloader/benchmark-dataloader.input';
export * from './use-cases/benchmark-dataloader/benchmark-dataloader.errors';
export * from './use-cases/benchmark-dataloader/benchmark-dataloader.use-case';
export * from './use-cases/calibrate-loader/calibrate-loader.input';
export * from './use-cases/calibrate-loader/calibrate-loader.errors';
export * from './use-cases/calibrate-loader/calibrate-loader.use-case';
export { parseRecord as parseCalibrationRecord } from './use-cases/calibrate-loader/calibration-record';
export * from './loader/measure-loader';

// benchmark-compare, benchmark-io, generate-sample-data.
export * from './use-cases/compare-benchmarks/compare-benchmarks.use-case';
export * from './use-cases/benchmark-io/benchmark-io.input';
export * from './use-cases/benchmark-io/benchmark-io.errors';
export * from './use-cases/benchmark-io/benchmark-io.use-case';
export * from './use-cases/generate-sample-data/generate-sample-data.input';
export * from './use-cases/generate-sample-data/generate-sample-data.errors';
export * from './use-cases/generate-sample-data/generate-sample-data.use-case';
export * from './use-cases/generate-sample-data/sample-data-progress';
// The bench scripts time one training pass and replay the stop watch.
export * from './use-cases/benchmark-training/training-pass';
export * from './use-cases/benchmark-training/stop-watch';
export * from './use-cases/benchmark-tune/benchmark-tune.input';
export * from './use-cases/benchmark-tune/benchmark-tune.use-case';
