import { formatNoiseScale, formatRateInterval, type BatchStudyReport, type SweepPoint } from '@maou/bench-domain';
import { recommendationLines } from './recommendation-lines';
import { formatGib as gib, formatMs as ms, labelledRow as row } from './console-text';

const pointRow = (p: SweepPoint, label: string, efficiency: string): string => {
  if (p.status === 'failed') return `    ${label.padStart(10)}   failed — ${p.error_kind}: ${p.reason}`;
  const ci = formatRateInterval(p.samples_per_second_ci95, p.samples_per_second_ci95_note, false);
  const epoch = `${ms(p.epoch_ms)} ±${(p.epoch_half_width_fraction * 100).toFixed(1)} %`;
  return `    ${label.padStart(10)} ${p.samples_per_second.toFixed(1).padStart(11)}  ${ci.padEnd(17)} ${epoch.padStart(17)} ${ms(p.batch_ms_mean).padStart(10)}  ${efficiency.padEnd(20)} ${p.final_loss.toFixed(4).padStart(10)}  (${p.measured_batches} measured)`;
};

const sweepLines = (r: BatchStudyReport): string[] => {
  if (!r.sweep) return [];
  const bySize = r.sweep.type === 'batch_size';
  const eff = r.critical_batch;
  const efficiency = (p: SweepPoint): string => {
    if (!eff || p.status !== 'ok') return '';
    const k = String(p.batch_size);
    const ci = eff.scaling_efficiency_ci95[k];
    const range = !ci
      ? ''
      : ci[1] === null
        ? ` [≥ ${ci[0].toFixed(2)}]`
        : ` [${ci[0].toFixed(2)}, ${ci[1].toFixed(2)}]`;
    return `${eff.scaling_efficiency[k]?.toFixed(3)}${range}`;
  };
  // an interval open above is "≥ low" in its cell; why, once per point below the table
  const open = r.sweep.points.flatMap((p) =>
    p.status === 'ok' && p.samples_per_second_ci95_note !== null
      ? [`    ${bySize ? 'batch' : 'lr'} ${bySize ? p.batch_size : p.learning_rate}: ${p.samples_per_second_ci95_note}`]
      : [],
  );
  return [
    '',
    `  ${bySize ? 'Batch-size' : 'Learning-rate'} sweep (each point a full measured run)`,
    `    ${(bySize ? 'batch' : 'lr').padStart(10)} ${'samples/s'.padStart(11)}  ${'95% CI'.padEnd(17)} ${'epoch (95 %)'.padStart(17)} ${'batch time'.padStart(10)}  ${(eff ? 'scaling efficiency' : '').padEnd(20)} ${'final loss'.padStart(10)}`,
    ...r.sweep.points.map((p) => pointRow(p, bySize ? String(p.batch_size) : String(p.learning_rate), efficiency(p))),
    ...open,
  ];
};

/** The human summary of a batch study (sweep, CBS, gradient noise scale, max batch), as printed on stdout. @public */
export const renderBatchStudySummary = (r: BatchStudyReport): string => {
  const env = r.environment;
  const lines = [
    `Batch study — Stage ${r.stage}, ${r.model.preset}${env ? ` on ${env.backend} ${env.backend_version}, ${env.threads} thread(s), ${env.device}` : ''}`,
    ...sweepLines(r),
  ];
  const c = r.critical_batch;
  if (c) {
    lines.push(
      '',
      row(
        'Critical batch size (throughput)',
        `${c.estimated_cbs}${c.gradient_noise_scale === null ? '' : ` (median of ${c.pair_estimates.length} pair estimates ${c.gradient_noise_scale.toFixed(1)})`}`,
      ),
      row('', c.recommendation),
    );
    const a = c.adaptive_batch_recommendation;
    if (a) lines.push(row('Adaptive batch (maou)', `${a.cli_example} (${a.rationale})`));
    const s = c.strategy_recommendation;
    if (s)
      lines.push(
        row('Strategy (maou)', `${s.recommendation} (CBS ÷ physical batch ${s.cbs_to_physical_ratio})`),
        ...s.summary_lines.map((l) => row('', l)),
      );
  }
  if (r.critical_batch_skipped)
    lines.push('', row('Critical batch size', `not estimated: ${r.critical_batch_skipped}`));
  const g = r.gradient_noise;
  if (g) {
    lines.push(
      row(
        'Gradient noise scale (measured)',
        `${formatNoiseScale(g, false)} over ${g.steps} updates of ${g.b_big.toFixed(0)} rows in pieces of ${g.b_small.toFixed(1)}`,
      ),
    );
    lines.push(row('', g.note));
    if (g.comparison) lines.push(row('Throughput CBS vs B_simple', g.comparison.note));
  }
  if (r.gradient_noise_skipped) lines.push(row('Gradient noise scale', `not measured: ${r.gradient_noise_skipped}`));
  const m = r.max_batch;
  if (m) {
    const limit =
      m.limited_by === 'cap'
        ? `the search cap; nothing failed up to ${m.max_batch_size}`
        : `batch ${m.first_failing} failed: ${m.failure_reason}`;
    lines.push(
      '',
      row(
        'Largest batch that fits',
        `${m.max_batch_size.toLocaleString('en-US')}${m.memory_bytes_at_max === null ? '' : `, memory ${gib(m.memory_bytes_at_max)}${m.memory_limit_bytes === null ? '' : ` of ${gib(m.memory_limit_bytes)}`}`} (${m.tries.length} tries)`,
      ),
      row('  limited by', limit),
      row('  "fits" means', m.definition),
    );
  }
  lines.push(...recommendationLines(r.recommendations));
  return `${lines.join('\n')}\n`;
};
