import { err, ok, type ResourcePlan, type TuneReport } from '@maou/bench-domain';
import { BenchmarkTuneUseCase, TOKENS, type LoggerPort } from '@maou/bench-use-cases';
import {
  TUNE_OPTIONS,
  toTrainingRun,
  toTuneRequest,
  tuneCommandLine,
  type BenchmarkTrainingArgs,
  type ParsedOptions,
  type TuneRequest,
  type ValidatedTrainingRun,
} from '@maou/bench-interface';
import { logResourcePlan } from '@maou/bench-host';
import { watchInterrupts, writeTuneHtmlReport } from '@maou/bench-infra';
import { stopRequest } from './benchmark-training.interrupt';
import { machineResources, type GlobalOptions } from '../composition-root';
import type { PlugIns } from '../plug-ins';
import { planResources } from '../resource-plan';
import type { CommandSpec } from '../run-command';
import { withSchema } from '../report-schemas/report-schemas';
import { renderTuneSummary } from '../console/tune-summary';
import { benchmarkTrainingTable } from './benchmark-training';

/** Every flag of `benchmark-training` (the baseline) and the tune's own. */
export const benchmarkTuneTable = (plugIns: PlugIns) => ({ ...benchmarkTrainingTable(plugIns), ...TUNE_OPTIONS });

type Args = BenchmarkTrainingArgs & ParsedOptions<typeof TUNE_OPTIONS> & GlobalOptions;
type Valid = ValidatedTrainingRun & { readonly plan: ResourcePlan; readonly tune: TuneRequest };

// The batch study sweeps what the tune measures and calibration picks loader settings under it: each is refused by
// name rather than ignored.
const refusedWithTune = (valid: ValidatedTrainingRun) => [
  ...(valid.study
    ? [{ field: '--batch-sizes', message: 'a batch study cannot be tuned; run it with benchmark-training' }]
    : []),
  ...(valid.calibration.mode !== 'off'
    ? [{ field: '--calibrate', message: 'the tune measures loader settings itself; leave calibration out' }]
    : []),
];

/** `benchmark-tune` as the runner drives it. */
export const benchmarkTuneSpec = (plugIns: PlugIns): CommandSpec<Args, Valid, TuneReport> => ({
  name: 'benchmark-tune',
  answersSignals: () => true,
  validate: async (args) => {
    const { plan, defaults } = await planResources(args, machineResources(), plugIns);
    if (plan.refusal) return err([{ field: 'RLIMIT_AS', message: plan.refusal }]);
    const run = toTrainingRun(args, defaults);
    const tune = toTuneRequest(args);
    const issues = [...(run.ok ? refusedWithTune(run.value) : run.error), ...(tune.ok ? [] : tune.error)];
    return run.ok && tune.ok && !issues.length ? ok({ ...run.value, plan, tune: tune.value }) : err(issues);
  },
  outputs: (_args, { config }) => ({ source: config.source }),
  container: () => ({ plugIns }),
  run: async (container, valid, args, { signal }) => {
    logResourcePlan(valid.plan, container.resolve<LoggerPort>(TOKENS.Logger));
    const watch = watchInterrupts('benchmark-tune', () => undefined);
    watch.markRunning();
    const stop = stopRequest(watch, signal);
    const table = benchmarkTuneTable(plugIns);
    const result = await container
      .resolve(BenchmarkTuneUseCase)
      .execute({
        config: valid.config,
        warnings: valid.warnings,
        resourceLimits: valid.plan.report,
        allow: valid.tune.allow,
        budgetMs: valid.tune.budgetMs,
        backends: plugIns.backends.byPriority(),
        commandLine: (changes) => tuneCommandLine(table, { ...args }, changes, Object.keys(TUNE_OPTIONS)),
        stop,
      })
      .finally(() => watch.dispose());
    if (!result.ok)
      return err({
        code: result.error.kind === 'interrupted' ? (stop.exitCode() ?? 130) : 1,
        message: `${result.error.kind}: ${result.error.message}`,
      });
    return ok(result.value);
  },
  present: (report) => ({
    payload: withSchema('benchmark-tune-report', report),
    text: renderTuneSummary(report),
    writeHtml: (path) => writeTuneHtmlReport(report, path),
  }),
});
