import { BenchmarkTrainingUseCase, TOKENS, interruptionText, type LoggerPort, type ProgressPort } from '@maou/bench-app';
import { checkBoundedNumbers, formatIssues } from '@maou/bench-domain';
import { toBatchStudy, toBenchmarkConfig, type RawBenchmarkTrainingOptions } from '@maou/bench-interface';
import { logResourcePlan, renderTrainingSummary, toJson, writeJsonReport, writeTrainingHtmlReport } from '@maou/bench-infra';
import { createContainer, type GlobalOptions } from '../composition-root';
import { planResources } from '../resource-plan';
import type { UtilityCommand } from './command-module';
import { BENCHMARK_TRAINING_OPTIONS } from './benchmark-training.options';
import { runBatchStudy } from './benchmark-training.study';
import { CALIBRATION_OPTIONS, calibrationMode, defaultCalibrationFile, registerCalibration } from '../register-calibration';
import { runOutputIssues } from '../output/run-output-checks';
import { interruptedStub, watchTrainingInterrupts } from './benchmark-training.interrupt';

interface Args extends RawBenchmarkTrainingOptions, GlobalOptions {
  readonly outputJson?: string;
  readonly json?: boolean;
  readonly reportHtml?: string;
  readonly tracePath?: string;
  readonly calibrate?: boolean;
  readonly forceCalibration?: boolean;
  readonly calibrationBudget?: number;
  readonly calibrationFile?: string;
}

/** Exit codes: 2 bad input (before anything is touched), 1 a failed run, 130/143 a run stopped by SIGINT/SIGTERM. */
const fail = (code: number, message: string): void => {
  process.stderr.write(`maou benchmark-training: ${message}\n`);
  process.exitCode = code;
};

const handler = async (args: Args): Promise<void> => {
  const { plan, defaults } = await planResources(args);
  const validated = toBenchmarkConfig(args, defaults);
  if (!validated.ok) return fail(2, `invalid options\n${formatIssues(validated.error)}`);
  const { config, warnings } = validated.value;
  const study = toBatchStudy(args);
  if (!study.ok) return fail(2, `invalid options\n${formatIssues(study.error)}`);
  const budget = checkBoundedNumbers([['--calibration-budget', args.calibrationBudget, { min: 0.1, max: 3600 }]]);
  const paths = runOutputIssues({ outputJson: args.outputJson, reportHtml: args.reportHtml, tracePath: config.enableProfiling ? args.tracePath ?? 'maou-trace.json' : undefined,
    calibrationFile: calibrationMode(args) === 'off' ? undefined : args.calibrationFile ?? defaultCalibrationFile(), source: config.source });
  if (budget.length || paths.length) return fail(2, `invalid options\n${formatIssues([...budget, ...paths])}`);
  if (study.value) return runBatchStudy(args, config, warnings, study.value, fail, plan);
  const container = createContainer({ logLevel: args.logLevel });
  logResourcePlan(plan, container.resolve<LoggerPort>(TOKENS.Logger));
  registerCalibration(container, args.calibrationFile);
  const progress = container.resolve<ProgressPort>(TOKENS.Progress);
  let task: ReturnType<ProgressPort['start']> | null = null;
  const { watch, batchDone } = watchTrainingInterrupts(args.outputJson);
  const result = await container.resolve(BenchmarkTrainingUseCase).execute({
    config, warnings, resourceLimits: plan.report, stop: watch,
    calibration: { mode: calibrationMode(args), budgetMs: args.calibrationBudget === undefined ? undefined : args.calibrationBudget * 1000,
      fixed: { workers: args.dataloaderWorkers, prefetchFactor: args.prefetchFactor, batchSize: args.batchSize } },
    onBatch: (_t, planned) => {
      task ??= progress.start({ label: 'benchmark batches', total: planned, unit: 'batches' });
      task.advance();
      batchDone(planned);
    },
  }).finally(() => watch.dispose());
  (task as ReturnType<ProgressPort['start']> | null)?.finish(result.ok ? 'done' : 'failed');
  if (!result.ok && result.error.kind === 'interrupted') {
    if (args.outputJson) await writeJsonReport(interruptedStub(result.error.interruption), args.outputJson);
    return fail(watch.exitCode() ?? 130, result.error.message);
  }
  if (!result.ok) return fail(1, `${result.error.kind}: ${result.error.message}`);
  const { report, trace } = result.value;
  if (trace) await writeJsonReport(trace, args.tracePath ?? 'maou-trace.json');
  const payload = trace ? { ...report, profile: report.profile && { ...report.profile, trace_path: args.tracePath ?? 'maou-trace.json' } } : report;
  if (args.outputJson) await writeJsonReport(payload, args.outputJson);
  if (args.reportHtml) {
    const html = await writeTrainingHtmlReport(payload, args.reportHtml);
    if (!html.ok) return fail(1, html.error.message);
  }
  process.stdout.write(args.json ? toJson(payload) : renderTrainingSummary(payload));
  if (report.interruption) fail(watch.exitCode() ?? 130, interruptionText(report.interruption));
};

/** `maou utility benchmark-training`. */
export const benchmarkTrainingCommand: UtilityCommand = {
  command: 'benchmark-training',
  describe: 'Time a single-epoch dry run of the training stack and predict the epoch',
  builder: (y) => y.options({ ...BENCHMARK_TRAINING_OPTIONS, ...CALIBRATION_OPTIONS })
    .example('$0 utility benchmark-training --max-batches 20 --warmup-batches 5', 'benchmark on the embedded sample data')
    .example('$0 utility benchmark-training --stage3-data-path data/ --batch-size 128 --run-validation --output-json out.json', 'your Stage 3 files, with a validation pass')
    .example('$0 utility benchmark-training --batch-sizes 64,128,256,512 --estimate-cbs --report-html study.html', 'which batch size: throughput, critical batch size, gradient noise scale')
    .example('$0 utility benchmark-training --gpu wasm --find-max-batch', 'the largest batch that trains as one piece in the wasm heap'),
  handler: (args) => handler(args as unknown as Args),
};
