import type { DataSourceSpec, ResourcePlan, ValidationIssue } from '@maou/bench-domain';
import {
  BenchmarkTrainingUseCase,
  TOKENS,
  interruptionText,
  type LoggerPort,
  type ProgressPort,
} from '@maou/bench-use-cases';
import { TRACE_PATH, err, ok, type BatchStudyReport, type BenchmarkTrainingReport } from '@maou/bench-domain';
import {
  CALIBRATION_OPTIONS,
  benchmarkTrainingOptions,
  sourceOptions,
  toTrainingRun,
  type BenchmarkTrainingArgs,
  type ValidatedTrainingRun,
} from '@maou/bench-interface';
import { jsHeapRefusal, logResourcePlan } from '@maou/bench-host';
import { TRACE_FILE, TRACE_MARKER, writeJsonReport, writeTrainingHtmlReport } from '@maou/bench-infra';
import { renderTrainingSummary } from '../console/training-summary';
import type { DependencyContainer } from '@maou/bench-use-cases';
import { machineResources, type GlobalOptions } from '../composition-root';
import type { PlugIns } from '../plug-ins';
import { planResources } from '../resource-plan';
import { defaultCalibrationFile } from '../register-calibration';
import type { CommandSpec, CommandView, RunContext } from '../run-command';
import { presentBatchStudy, runBatchStudy } from './benchmark-training.study';
import { interruptedStub, stopRequest, watchTrainingInterrupts } from './benchmark-training.interrupt';
import { withSchema } from '../report-schemas/report-schemas';

/** Every flag of `benchmark-training`: the run's table (with the plug-ins' backends), the datasources' and calibration's. */
export const benchmarkTrainingTable = (plugIns: PlugIns) => ({
  ...benchmarkTrainingOptions(plugIns.backends.byPriority()),
  ...sourceOptions(plugIns.sources.choices()),
  ...CALIBRATION_OPTIONS,
});

type Args = BenchmarkTrainingArgs & GlobalOptions;
type Valid = ValidatedTrainingRun & { readonly plan: ResourcePlan };
/** What a `benchmark-training` run produced: one measured run, or a batch study. */
export type Outcome =
  | { readonly kind: 'run'; readonly report: BenchmarkTrainingReport; readonly exitCode: number | null }
  | { readonly kind: 'study'; readonly report: BatchStudyReport };

// A source that generates its data in this process (the embedded sample data) says how much heap that takes: it is
// checked with the address space, so a small --max-old-space-size is refused before the run, not aborted by V8 in it.
const sourceHeapRefusal = ({ heapNeed }: DataSourceSpec): ValidationIssue | null => {
  const why = heapNeed ? jsHeapRefusal(heapNeed.bytes, heapNeed.what) : null;
  return why ? { field: '--max-old-space-size', message: why } : null;
};

const tracePath = (args: Args): string => args.tracePath ?? TRACE_PATH.default;

const runTraining = async (
  container: DependencyContainer,
  { config, warnings, calibration, plan }: Valid,
  args: Args,
  { signal, queuedMs }: RunContext,
) => {
  const progress = container.resolve<ProgressPort>(TOKENS.Progress);
  let task: ReturnType<ProgressPort['start']> | null = null;
  const { watch, batchDone } = watchTrainingInterrupts(args.outputJson);
  const stop = stopRequest(watch, signal);
  const result = await container
    .resolve(BenchmarkTrainingUseCase)
    .execute({
      config,
      warnings,
      resourceLimits: plan.report,
      stop,
      calibration: { mode: calibration.mode, budgetMs: calibration.budgetMs, fixed: calibration.fixed },
      onBatch: (_t, planned) => {
        task ??= progress.start({ label: 'benchmark batches', total: planned, unit: 'batches' });
        task.advance();
        batchDone(planned);
      },
    })
    .finally(() => watch.dispose());
  (task as ReturnType<ProgressPort['start']> | null)?.finish(result.ok ? 'done' : 'failed');
  if (!result.ok && result.error.kind === 'interrupted') {
    return err({
      code: stop.exitCode() ?? 130,
      message: result.error.message,
      outputJson: interruptedStub(result.error.interruption),
    });
  }
  if (!result.ok) return err({ code: 1, message: `${result.error.kind}: ${result.error.message}` });
  const { trace } = result.value;
  const report = { ...result.value.report, environment: { ...result.value.report.environment, queued_ms: queuedMs } };
  // the marker first, in the trace format's own place for other data, so a later run knows the file as its own
  if (trace) await writeJsonReport({ otherData: TRACE_MARKER, ...trace }, tracePath(args), TRACE_FILE);
  const payload = trace
    ? { ...report, profile: report.profile && { ...report.profile, trace_path: tracePath(args) } }
    : report;
  return ok({ kind: 'run' as const, report: payload, exitCode: stop.exitCode() });
};

const presentRun = (report: BenchmarkTrainingReport, exitCode: number | null): CommandView => ({
  payload: withSchema('benchmark-training-report', report),
  text: renderTrainingSummary(report),
  writeHtml: (path) => writeTrainingHtmlReport(report, path),
  // A run cut short by a signal reports what it measured, then exits as the signal asks.
  ...(report.interruption ? { exit: { code: exitCode ?? 130, message: interruptionText(report.interruption) } } : {}),
});

/** `benchmark-training` as the runner drives it; `benchmarkTraining()` drives the same spec. */
export const benchmarkTrainingSpec = (plugIns: PlugIns): CommandSpec<Args, Valid, Outcome> => ({
  name: 'benchmark-training',
  validate: async (args) => {
    const { plan, defaults } = await planResources(args, machineResources(), plugIns);
    // A run that cannot fit this process's limits is refused before any batch, naming the limit and the need.
    if (plan.refusal) return err([{ field: 'RLIMIT_AS', message: plan.refusal }]);
    const run = toTrainingRun(args, defaults);
    if (!run.ok) return run;
    const heap = sourceHeapRefusal(run.value.config.source);
    return heap ? err([heap]) : ok({ ...run.value, plan });
  },
  outputs: (args, { config, calibration, study }) => ({
    source: config.source,
    tracePath: config.enableProfiling && !study ? tracePath(args) : undefined,
    calibrationFile: calibration.mode === 'off' || study ? undefined : (calibration.file ?? defaultCalibrationFile()),
  }),
  answersSignals: ({ study }) => !study,
  container: (_args, { calibration, study }) => ({
    plugIns,
    ...(calibration.file && !study ? { calibrationFile: calibration.file } : {}),
  }),
  run: async (container, valid, args, context) => {
    logResourcePlan(valid.plan, container.resolve<LoggerPort>(TOKENS.Logger));
    if (valid.study) {
      const study = await runBatchStudy(container, valid, valid.study, valid.plan, context);
      return study.ok ? ok({ kind: 'study' as const, report: study.value }) : study;
    }
    return runTraining(container, valid, args, context);
  },
  present: (out) => (out.kind === 'study' ? presentBatchStudy(out.report) : presentRun(out.report, out.exitCode)),
});
