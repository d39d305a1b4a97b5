import {
  rateInterval,
  settleDecisions,
  type BenchmarkConfig,
  type ResourceLimitsReport,
  type SweepKind,
  type SweepPoint,
} from '@maou/bench-domain';
import type { BenchmarkTrainingError } from '../benchmark-training/benchmark-training.errors';
import type { BenchmarkTrainingOutput } from '../benchmark-training/benchmark-training.use-case';
import type { Result } from '@maou/bench-domain';

/**
 * One sweep point's run: the swept setting replaced, everything else as given; a batch size is recorded over the
 * plan's decision, so the point's report shows the batch that ran.
 * @internal
 */
export const pointRun = (
  config: BenchmarkConfig,
  limits: ResourceLimitsReport | undefined,
  type: SweepKind,
  value: number,
): { readonly config: BenchmarkConfig; readonly limits: ResourceLimitsReport | undefined } =>
  type === 'batch_size'
    ? settleDecisions(config, limits, [
        { setting: 'batch_size', value, origin: 'study', reason: `a point of the --batch-sizes sweep` },
      ])
    : { config: { ...config, training: { ...config.training, learningRate: value } }, limits };

/** The configuration of one sweep point (`pointRun` without the plan). @internal */
export const pointConfig = (config: BenchmarkConfig, type: SweepKind, value: number): BenchmarkConfig =>
  pointRun(config, undefined, type, value).config;

/** One point's outcome: its headline figures and full report, or why it failed. @internal */
export const toSweepPoint = (
  config: BenchmarkConfig,
  r: Result<BenchmarkTrainingOutput, BenchmarkTrainingError>,
): SweepPoint => {
  const base = { batch_size: config.loader.batchSize, learning_rate: config.training.learningRate };
  if (!r.ok) return { status: 'failed', ...base, error_kind: r.error.kind, reason: r.error.message };
  const report = r.value.report;
  const m = report.training_metrics;
  // The point's figures come from the same epoch estimator a single run uses, so its interval is the one that run
  // would print (the mean batch time's narrower interval was a second, different ±).
  const e = report.epoch_estimate;
  const [lo, hi] = e.predicted_ms_ci95;
  const throughput = rateInterval(e.samples_per_epoch, e.predicted_ms_ci95, "this point's epoch estimate");
  return {
    status: 'ok',
    ...base,
    samples_per_second: (e.samples_per_epoch * 1000) / e.predicted_ms,
    samples_per_second_ci95: throughput.ci95,
    samples_per_second_ci95_note: throughput.note,
    epoch_ms: e.predicted_ms,
    epoch_ms_ci95: e.predicted_ms_ci95,
    epoch_half_width_fraction: e.half_width_fraction ?? (hi - lo) / 2 / e.predicted_ms,
    batch_ms_mean: m.batch_ms.mean,
    batch_ms_ci95: m.batch_ms.ci95,
    measured_batches: m.measured_batches,
    initial_loss: m.initial_loss,
    final_loss: m.final_loss,
    report,
  };
};
