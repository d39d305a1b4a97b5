import type { BatchStudyReport, BenchmarkTrainingReport } from '@maou/bench-domain';
import type { CALIBRATION_OPTIONS, RawBenchmarkTrainingOptions, RawOptions } from '@maou/bench-interface';
import type { LogLevel } from '@maou/bench-infra';
import type { PortOverrides } from '../composition-root';
import { BENCHMARK_TRAINING_TABLE, benchmarkTrainingSpec, type Outcome } from '../commands/benchmark-training.command';
import { GLOBAL_OPTIONS } from '../global-options';
import { checkCommand, executeCommand } from '../run-command';
import { BenchmarkRunError, UsageError } from '../usage-error';
import { readOptions } from './library-options';

type StudyKey = 'batchSizes' | 'learningRates' | 'estimateCbs' | 'findMaxBatch' | 'findMaxBatchCap';

/**
 * The flags of `maou utility benchmark-training`, camelCased (`--batch-size` is `batchSize`), with the same defaults
 * and checks; `json` (stdout) has no use here. `outputJson` and `reportHtml` still write their files.
 * @public
 */
export type BenchmarkTrainingOptions = Omit<RawBenchmarkTrainingOptions, 'json' | StudyKey> &
  RawOptions<typeof CALIBRATION_OPTIONS> & { readonly logLevel?: LogLevel };

/** The same, with the batch study's flags (`batchSizes`, `learningRates`, `findMaxBatch`, …). @public */
export type BatchStudyOptions = Omit<RawBenchmarkTrainingOptions, 'json'> & { readonly logLevel?: LogLevel };

/** How a library run is wired: `overrides` replace ports (see `createContainer`), the rest stay real. @public */
export interface RunWiring {
  readonly overrides?: PortOverrides;
}

const COMMAND = 'utility benchmark-training';

type Args = Parameters<(typeof benchmarkTrainingSpec)['validate']>[0];

// Every flag but --json (stdout has no use in a library call).
const TABLE = Object.fromEntries(
  Object.entries({ ...BENCHMARK_TRAINING_TABLE, ...GLOBAL_OPTIONS }).filter(([flag]) => flag !== 'json'),
);
const STUDY_FLAGS = ['batchSizes', 'learningRates', 'findMaxBatch'] as const;
const studyFlag = (options: BatchStudyOptions) => STUDY_FLAGS.find((k) => options[k] !== undefined);

const runSpec = async (options: object, wiring: RunWiring): Promise<Outcome> => {
  const read = readOptions<Args>(TABLE, options);
  if (!read.ok) throw UsageError.of(read.error, COMMAND);
  const checked = await checkCommand(benchmarkTrainingSpec, read.value);
  if (!checked.ok) throw UsageError.of(checked.error, COMMAND);
  const done = await executeCommand(benchmarkTrainingSpec, read.value, checked.value, wiring.overrides);
  if (!done.ok) throw new BenchmarkRunError(done.error.message, done.error.code);
  return done.value.value;
};

/**
 * One training benchmark, as `maou utility benchmark-training` runs it, with every default adapter (or those in
 * `wiring.overrides`). Resolves to the report (`report.interruption` is set when SIGINT/SIGTERM cut it short);
 * rejects with `UsageError` for bad options (before any I/O) and `BenchmarkRunError` for a failed run.
 * @public
 */
export const benchmarkTraining = async (
  options: BenchmarkTrainingOptions = {},
  wiring: RunWiring = {},
): Promise<BenchmarkTrainingReport> => {
  const study = studyFlag(options);
  if (study) throw UsageError.of([{ field: study, message: 'a batch study: call benchmarkTrainingStudy()' }], COMMAND);
  const out = await runSpec(options, wiring);
  if (out.kind !== 'run') throw new Error('benchmark-training: a plain run produced a batch study');
  return out.report;
};

/**
 * The batch study of `benchmark-training` (`--batch-sizes`, `--learning-rates` or `--find-max-batch`), with every
 * default adapter; resolves to its report.
 * @public
 */
export const benchmarkTrainingStudy = async (
  options: BatchStudyOptions,
  wiring: RunWiring = {},
): Promise<BatchStudyReport> => {
  if (!studyFlag(options))
    throw UsageError.of(
      [
        {
          field: 'batchSizes',
          message: 'give batchSizes, learningRates or findMaxBatch (or call benchmarkTraining())',
        },
      ],
      COMMAND,
    );
  const out = await runSpec(options, wiring);
  if (out.kind !== 'study') throw new Error('benchmark-training: a batch study produced a plain run');
  return out.report;
};
