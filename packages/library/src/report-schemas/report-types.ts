// The root types of the JSON files the commands write, as scripts/generate-report-schemas.cjs turns them into the
// JSON Schemas in packages/cli/schemas/. Types only: nothing here runs.
import type { BatchStudyReport, BenchmarkTrainingReport, TuneReport } from '@maou/bench-domain';
import type { DataloaderBenchmarkReport, InterruptedDataloaderStub } from '../commands/benchmark-dataloader.output';
import type { InterruptedTrainingStub } from '../commands/benchmark-training.interrupt';

/** A payload as written: `$schema` names its schema (`REPORT_SCHEMAS[…].id`). */
export type Written<T> = { readonly $schema: string } & T;

/** `benchmark-training --output-json` (and `--json`): the report, or the stub of a run stopped before it measured. */
export type BenchmarkTrainingJson = Written<BenchmarkTrainingReport> | Written<InterruptedTrainingStub>;

/** `benchmark-training --batch-sizes/--learning-rates/--find-max-batch --output-json`. */
export type BatchStudyJson = Written<BatchStudyReport>;

/** `benchmark-dataloader --output-json`: the report, or the stub of a grid a signal ended. */
export type BenchmarkDataloaderJson = Written<DataloaderBenchmarkReport> | Written<InterruptedDataloaderStub>;

/** `benchmark-tune --output-json` (and `--json`). */
export type BenchmarkTuneJson = Written<TuneReport>;
