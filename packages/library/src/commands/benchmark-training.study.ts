import type { ResourcePlan } from '@maou/bench-domain';
import { BatchStudyUseCase, TOKENS, type ProgressPort } from '@maou/bench-use-cases';
import {
  err,
  ok,
  type BatchStudyReport,
  type BenchmarkConfig,
  type Result,
  type SweepPointFailed,
} from '@maou/bench-domain';
import type { ValidatedBatchStudy } from '@maou/bench-interface';
import { writeBatchStudyHtmlReport } from '@maou/bench-infra';
import { renderBatchStudySummary } from '../console/batch-study-summary';
import type { DependencyContainer } from '@maou/bench-use-cases';
import type { CommandFailure, CommandView, RunContext } from '../run-command';
import { signalStop } from './benchmark-training.interrupt';
import { withSchema } from '../report-schemas/report-schemas';

/**
 * `benchmark-training` with `--batch-sizes`, `--learning-rates` or `--find-max-batch`: runs the batch study with a
 * progress task per stage. Calibration flags were refused by the interface (calibration would change the batch size
 * under the sweep).
 */
export const runBatchStudy = async (
  container: DependencyContainer,
  { config, warnings }: { config: BenchmarkConfig; warnings: readonly string[] },
  study: ValidatedBatchStudy,
  plan: ResourcePlan,
  { signal, queuedMs }: RunContext,
): Promise<Result<BatchStudyReport, CommandFailure>> => {
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
    config,
    warnings,
    ...study,
    resourceLimits: plan.report,
    stop: signalStop(signal),
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
  if (!result.ok) return err({ code: 1, message: `${result.error.kind}: ${result.error.message}` });
  return ok({ ...result.value, environment: { ...result.value.environment, queued_ms: queuedMs } });
};

/** The study's summary, JSON and HTML; a sweep of which no point ran is still a failed run (exit 1), reported first. */
export const presentBatchStudy = (report: BatchStudyReport): CommandView => {
  const failed = (report.sweep?.points ?? []).filter((p): p is SweepPointFailed => p.status === 'failed');
  const first = failed[0];
  const allFailed = first !== undefined && failed.length === report.sweep!.points.length;
  const at =
    first &&
    (report.sweep!.type === 'batch_size' ? `batch size ${first.batch_size}` : `learning rate ${first.learning_rate}`);
  return {
    payload: withSchema('batch-study-report', report),
    text: renderBatchStudySummary(report),
    writeHtml: (path) => writeBatchStudyHtmlReport(report, path),
    ...(allFailed
      ? {
          exit: {
            code: 1,
            message: `every sweep point failed; the first (${at}) with ${first.error_kind}: ${first.reason}`,
          },
        }
      : {}),
  };
};
