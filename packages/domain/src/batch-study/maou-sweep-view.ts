import type {
  MaouBatchSizeRow,
  MaouCbsEstimation,
  MaouLearningRateRow,
  MaouSweepPayload,
  MaouSweepResult,
} from '../report/maou-sweep-payload';
import { isOutOfMemoryMessage } from '../errors/out-of-memory';
import type { SweepKind, SweepPoint, SweepPointOk } from './batch-study-report';
import type { CriticalBatchEstimate } from './critical-batch';

const f = (x: number, digits: number): string => x.toFixed(digits);
const pad = (s: string, width: number): string => s.padStart(width);

const valueKey = (type: SweepKind): 'sweep_batch_size' | 'sweep_learning_rate' =>
  type === 'batch_size' ? 'sweep_batch_size' : 'sweep_learning_rate';

const detailed = (type: SweepKind, p: SweepPoint): MaouSweepResult => {
  const key = { [valueKey(type)]: type === 'batch_size' ? p.batch_size : p.learning_rate };
  if (p.status === 'ok') return { ...p.report.maou, ...key };
  return isOutOfMemoryMessage(p.reason) ? { ...key, oom: true } : { ...key, oom: false, error: p.reason };
};

const cbsEstimation = (c: CriticalBatchEstimate): MaouCbsEstimation => ({
  estimated_cbs: c.estimated_cbs,
  cbs_exceeds_tested: c.cbs_exceeds_tested,
  gradient_noise_scale: c.gradient_noise_scale,
  recommendation: c.recommendation,
  scaling_efficiency: c.scaling_efficiency,
  ...(c.adaptive_batch_recommendation ? { adaptive_batch_recommendation: c.adaptive_batch_recommendation } : {}),
  ...(c.strategy_recommendation ? { strategy_recommendation: c.strategy_recommendation } : {}),
});

const batchSizeSummary = (
  rows: readonly MaouBatchSizeRow[],
  oom: readonly number[],
  failed: readonly string[],
  cbs: MaouCbsEstimation | undefined,
): string => {
  const head = ['BS', 'samp/s', 'batch_t', 'data_t', 'fwd_t', 'bwd_t', 'GPU MB'].map((h, i) => pad(h, i ? 8 : 6));
  const lines = ['=== Batch Size Sweep Results ===', `${[...head, pad('loss', 10)].join(' | ')}`, '-'.repeat(85)];
  for (const r of rows)
    lines.push(
      [
        pad(String(r.batch_size), 6),
        pad(f(r.samples_per_second, 1), 8),
        ...[r.avg_batch_time, r.data_loading_time, r.forward_pass_time, r.backward_pass_time].map((x) =>
          pad(f(x, 4), 8),
        ),
        pad('N/A', 8),
        pad(f(r.average_loss, 6), 10),
      ].join(' | '),
    );
  if (oom.length) lines.push('', `Out of memory at batch sizes: [${oom.join(', ')}]`);
  if (failed.length) lines.push('', ...failed);
  if (cbs) {
    lines.push('', `Estimated Critical Batch Size (CBS): ${cbs.estimated_cbs}`);
    if (cbs.gradient_noise_scale !== null)
      lines.push(`  Gradient Noise Scale (B_noise): ${f(cbs.gradient_noise_scale, 1)}`);
    lines.push(`  Recommendation: ${cbs.recommendation}`);
    const a = cbs.adaptive_batch_recommendation;
    if (a) lines.push('', 'Adaptive Batch Recommendation:', `  ${a.rationale}`, `  CLI: ${a.cli_example}`);
    const s = cbs.strategy_recommendation;
    if (s)
      lines.push('', '=== Strategy Guide: Adaptive Batch vs LR Scheduler ===', ...s.summary_lines.map((l) => `  ${l}`));
  }
  return lines.join('\n');
};

const learningRateSummary = (rows: readonly MaouLearningRateRow[], failed: readonly string[]): string => {
  const lines = [
    '=== Learning Rate Sweep Results ===',
    [pad('LR', 12), pad('avg_loss', 10), pad('final_loss', 10), pad('samp/s', 8)].join(' | '),
    '-'.repeat(50),
    ...rows.map((r) =>
      [
        pad(f(r.learning_rate, 6), 12),
        pad(f(r.average_loss, 6), 10),
        pad(f(r.final_loss, 6), 10),
        pad(f(r.samples_per_second, 1), 8),
      ].join(' | '),
    ),
  ];
  if (failed.length) lines.push('', ...failed);
  // maou names the learning rate of the lowest average loss
  const best = rows.reduce<MaouLearningRateRow | null>((b, r) => (b && b.average_loss <= r.average_loss ? b : r), null);
  if (best) lines.push('', `Best Learning Rate: ${best.learning_rate} (avg_loss: ${f(best.average_loss, 6)})`);
  return lines.join('\n');
};

const learningRateRow = ({ learning_rate, report }: SweepPointOk): MaouLearningRateRow => {
  const { average_loss, final_loss, samples_per_second } = report.maou.training_metrics;
  return { learning_rate, average_loss, final_loss, samples_per_second };
};

const batchSizeRow = ({ batch_size, report }: SweepPointOk): MaouBatchSizeRow => {
  const m = report.maou.training_metrics;
  const { samples_per_second, data_loading_time, forward_pass_time, backward_pass_time, average_loss } = m;
  const avg_batch_time = m.actual_average_batch_time;
  return {
    batch_size,
    samples_per_second,
    avg_batch_time,
    data_loading_time,
    forward_pass_time,
    backward_pass_time,
    average_loss,
  };
};

/**
 * A sweep as maou's `--batch-sizes` / `--learning-rates` payload: one comparison row per point that ran, from that
 * point's own maou view (so each row repeats figures of `detailed_results`), the points in sweep order, and with
 * `--estimate-cbs` the study's critical batch.
 * @public
 */
export const toMaouSweepPayload = (
  sweep: { readonly type: SweepKind; readonly points: readonly SweepPoint[] },
  criticalBatch: CriticalBatchEstimate | null,
): MaouSweepPayload => {
  const byBatch = sweep.type === 'batch_size';
  const detailed_results = sweep.points.map((p) => detailed(sweep.type, p));
  const ran = sweep.points.flatMap((p) => (p.status === 'ok' ? [p] : []));
  const failed = sweep.points.flatMap((p) => (p.status === 'failed' ? [p] : []));
  const failedLines = failed
    .filter((p) => !isOutOfMemoryMessage(p.reason))
    .map(
      (p) => `Failed at ${byBatch ? `batch size ${p.batch_size}` : `learning rate ${p.learning_rate}`}: ${p.reason}`,
    );
  if (!byBatch) {
    const comparison = ran.map(learningRateRow);
    const summary = learningRateSummary(comparison, failedLines);
    return { sweep_type: 'learning_rate', comparison, summary, detailed_results };
  }
  const comparison = ran.map(batchSizeRow);
  const oom = failed.filter((p) => isOutOfMemoryMessage(p.reason)).map((p) => p.batch_size);
  const cbs = criticalBatch ? cbsEstimation(criticalBatch) : undefined;
  const summary = batchSizeSummary(comparison, oom, failedLines, cbs);
  return {
    sweep_type: 'batch_size',
    comparison,
    summary,
    detailed_results,
    oom_batch_sizes: oom,
    ...(cbs ? { cbs_estimation: cbs } : {}),
  };
};
