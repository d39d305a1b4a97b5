import type { BatchStudyReport, BenchmarkTrainingReport } from '@maou/bench-domain';
import type { CALIBRATION_OPTIONS, RawBenchmarkTrainingOptions, RawOptions } from '@maou/bench-interface';
import type { LogLevel } from '@maou/bench-infra';
import type { PortOverrides } from './composition-root';
import { benchmarkTrainingTable, benchmarkTrainingSpec, type Outcome } from './commands/benchmark-training';
import { shippedPlugIns, type PlugIns } from './plug-ins';
import { UsageError } from './usage-error';
import { runAsLibrary } from './library-options';
import type { OneOrMore, SourcePlugInOptions } from './source-options';

type StudyKey = 'batchSizes' | 'learningRates' | 'estimateCbs' | 'findMaxBatch' | 'findMaxBatchCap';

/**
 * The flags of `maou utility benchmark-training`, camelCased (`--batch-size` is `batchSize`), with the same defaults
 * and checks; `json` (stdout) has no use here. `outputJson` and `reportHtml` still write their files. Closed: a name
 * no flag has is a compile error (a plug-in's own flags: `benchmarkTraining<TheirOptions>(…)`).
 * @public
 */
export type BenchmarkTrainingOptions = OneOrMore<
  Omit<RawBenchmarkTrainingOptions, 'json' | StudyKey> &
    RawOptions<typeof CALIBRATION_OPTIONS> &
    SourcePlugInOptions & { readonly logLevel?: LogLevel }
>;

/** The same, with the batch study's flags (`batchSizes`, `learningRates`, `findMaxBatch`, …). @public */
export type BatchStudyOptions = OneOrMore<
  Omit<RawBenchmarkTrainingOptions, 'json'> &
    RawOptions<typeof CALIBRATION_OPTIONS> &
    SourcePlugInOptions & { readonly logLevel?: LogLevel }
>;

/**
 * How a library run is wired: `overrides` replace ports (see `createContainer`), the rest stay real; `plugIns` replace
 * the shipped backends and datasources (their flags then become options here); `signal` cancels the run (Node's
 * convention): already aborted, the call rejects with its reason before any work; aborted during the batches, the
 * run stops after the current one and resolves to what it measured (`report.interruption`).
 * @public
 */
export interface RunWiring {
  readonly overrides?: PortOverrides;
  readonly plugIns?: PlugIns;
  readonly signal?: AbortSignal;
}

const COMMAND = 'utility benchmark-training';

const STUDY_FLAGS = ['batchSizes', 'learningRates', 'findMaxBatch'] as const;
const studyFlag = (options: BatchStudyOptions) => STUDY_FLAGS.find((k) => options[k] !== undefined);

const runSpec = (options: object, wiring: RunWiring): Promise<Outcome> => {
  const plugIns = wiring.plugIns ?? shippedPlugIns();
  return runAsLibrary(benchmarkTrainingSpec(plugIns), benchmarkTrainingTable(plugIns), options, wiring);
};

/**
 * One training benchmark, as `maou utility benchmark-training` runs it, with every default adapter (or those in
 * `wiring.overrides`), printing nothing. Resolves to the report (`report.interruption` is set when `wiring.signal`
 * cut it short);
 * rejects with `UsageError` for bad options (before any I/O) and `BenchmarkRunError` for a failed run.
 * @public
 */
export const benchmarkTraining = async <PlugInOptions extends object = Record<never, never>>(
  options?: BenchmarkTrainingOptions & NoInfer<PlugInOptions>,
  wiring: RunWiring = {},
): Promise<BenchmarkTrainingReport> => {
  const study = studyFlag(options ?? {});
  if (study) throw UsageError.of([{ field: study, message: 'a batch study: call benchmarkTrainingStudy()' }], COMMAND);
  const out = await runSpec(options ?? {}, wiring);
  if (out.kind !== 'run') throw new Error('benchmark-training: a plain run produced a batch study');
  return out.report;
};

/**
 * The batch study of `benchmark-training` (`--batch-sizes`, `--learning-rates` or `--find-max-batch`), with every
 * default adapter; resolves to its report.
 * @public
 */
export const benchmarkTrainingStudy = async <PlugInOptions extends object = Record<never, never>>(
  options: BatchStudyOptions & NoInfer<PlugInOptions>,
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
