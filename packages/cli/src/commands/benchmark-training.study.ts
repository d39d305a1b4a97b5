import { BatchStudyUseCase, TOKENS, type LoggerPort, type ProgressPort } from '@maou/bench-app';
import type { BenchmarkConfig, SweepPointFailed } from '@maou/bench-domain';
import type { ValidatedBatchStudy } from '@maou/bench-interface';
import { logResourcePlan, renderBatchStudySummary, toJson, writeBatchStudyHtmlReport, writeJsonReport, type ResourcePlan } from '@maou/bench-infra';
import { createContainer, type GlobalOptions } from '../composition-root';
import { registerCalibration } from '../register-calibration';

interface StudyArgs extends GlobalOptions {
  readonly outputJson?: string;
  readonly json?: boolean;
  readonly reportHtml?: string;
  readonly calibrate?: boolean;
  readonly forceCalibration?: boolean;
  readonly calibrationBudget?: number;
  readonly calibrationFile?: string;
}

/**
 * `benchmark-training` with `--batch-sizes`, `--learning-rates` or `--find-max-batch`: runs the batch study and
 * writes its summary, JSON and HTML. Calibration would change the batch size under the sweep, so it is refused.
 */
export const runBatchStudy = async (args: StudyArgs, config: BenchmarkConfig, warnings: readonly string[], study: ValidatedBatchStudy,
  fail: (code: 1 | 2, message: string) => void, plan: ResourcePlan): Promise<void> => {
  // Every calibration flag is refused, not only --calibrate: the study never reads them, and ignoring one is a silent fallback.
  const calibrationFlag = args.calibrate || args.forceCalibration ? (args.forceCalibration ? '--force-calibration' : '--calibrate')
    : args.calibrationBudget !== undefined ? '--calibration-budget' : args.calibrationFile !== undefined ? '--calibration-file' : null;
  if (calibrationFlag) {
    return fail(2, `invalid options\n${calibrationFlag}: cannot be combined with --batch-sizes, --learning-rates or --find-max-batch (calibration picks its own batch size); calibrate in a separate run`);
  }
  const container = createContainer({ logLevel: args.logLevel });
  logResourcePlan(plan, container.resolve<LoggerPort>(TOKENS.Logger));
  // The training use case each point runs through needs the calibration store bound, though the study never calibrates.
  registerCalibration(container);
  const progress = container.resolve<ProgressPort>(TOKENS.Progress);
  let task: ReturnType<ProgressPort['start']> | null = null;
  let stage = '';
  let untimed = false;
  const finishStage = (outcome: 'done' | 'failed' = 'done'): void => {
    if (untimed && outcome === 'done') (task as ReturnType<ProgressPort['start']> | null)?.advance();
    (task as ReturnType<ProgressPort['start']> | null)?.finish(outcome);
    task = null;
  };
  const result = await container.resolve(BatchStudyUseCase).execute({
    config, warnings, ...study, resourceLimits: plan.report,
    onStage: (label, timed) => {
      finishStage();
      stage = label;
      // A sweep point's task starts with its first batch, which knows the total; other stages are one unit each.
      if (!timed) task = progress.start({ label, total: 1, unit: 'stage' });
      untimed = !timed;
    },
    onBatch: (_t, planned) => {
      task ??= progress.start({ label: stage, total: planned, unit: 'batches' });
      task.advance();
    },
  });
  finishStage(result.ok ? 'done' : 'failed');
  if (!result.ok) return fail(1, `${result.error.kind}: ${result.error.message}`);
  const report = result.value;
  if (args.outputJson) await writeJsonReport(report, args.outputJson);
  if (args.reportHtml) {
    const html = await writeBatchStudyHtmlReport(report, args.reportHtml);
    if (!html.ok) return fail(1, html.error.message);
  }
  process.stdout.write(args.json ? toJson(report) : renderBatchStudySummary(report));
  // The report above keeps each failure's reason; a sweep of which no point ran is still a failed run.
  const failed = (report.sweep?.points ?? []).filter((p): p is SweepPointFailed => p.status === 'failed');
  if (failed.length > 0 && failed.length === report.sweep!.points.length) {
    const first = failed[0]!;
    const at = report.sweep!.type === 'batch_size' ? `batch size ${first.batch_size}` : `learning rate ${first.learning_rate}`;
    fail(1, `every sweep point failed; the first (${at}) with ${first.error_kind}: ${first.reason}`);
  }
};
