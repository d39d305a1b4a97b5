import { formatRateInterval, type BenchmarkTrainingReport } from '@maou/bench-domain';
import { sampleDataNote } from './sample-data-note';
import { recommendationLines } from './recommendation-lines';
import { adaptiveBatchLines } from './adaptive-batch-lines';
import { knobCostLines } from './knob-cost-lines';
import { formatMs as ms, labelledRow as row } from './console-text';
import {
  dur,
  estimationLines,
  ioLines,
  phaseLines,
  profileLines,
  resourceLimitLines,
  resourceLines,
  seriesText,
  validationLines,
} from './training-sections';

const STOP_WORDS = {
  'precision-reached': 'steady and precise enough',
  'epoch-complete': 'the epoch was complete',
  'max-batches': 'batch cap reached',
  'time-budget': 'time budget ran out first',
} as const;

/** Why the run stopped, how long it took, what the CPU counters saw, and every caveat of the estimate. */
const stoppingRows = (e: BenchmarkTrainingReport['epoch_estimate']): string[] => {
  const rows: string[] = [];
  if (e.stopping)
    rows.push(
      row(
        'Answer',
        `after ${e.stopping.batches} batches in ${ms(e.stopping.time_to_answer_ms)}: ${STOP_WORDS[e.stopping.reason]}${e.stopping.target_precision ? ` (target ±${(e.stopping.target_precision * 100).toFixed(1)} %, budget ${ms(e.stopping.time_budget_ms ?? 0)})` : ''}`,
      ),
    );
  const c = e.contention;
  if (c)
    rows.push(
      row(
        'Other processes',
        c.measured
          ? `${(c.others_share * 100).toFixed(0)} % of the CPUs, steal ${(c.steal_share * 100).toFixed(1)} %, ${c.disturbed_batches} batch(es) disturbed; this run used ${c.process_parallelism.toFixed(2)} cores`
          : 'not measured (no system CPU counters on this platform)',
      ),
    );
  for (const n of e.notes ?? []) rows.push(`  ! ${n}`);
  return rows;
};

/** The planned step's shape and precision, or which path ran (webgpu), when the trainer reported one. */
const backendStepRows = (b: BenchmarkTrainingReport['environment']['backend_step']): string[] => {
  if (!b) return [];
  const host = b.host_ms_per_step === null ? '' : `, ${ms(b.host_ms_per_step)} host per step`;
  const counts = `${b.dispatches_per_step} dispatches, ${b.submits_per_step} submit${host}`;
  const rows = [row('Backend step', b.dispatches_per_step === null ? `${b.kind}; ${b.notes[0] ?? ''}` : counts)];
  const mp = b.mixed_precision;
  if (mp)
    rows.push(
      row(
        'Precision',
        `mixed: ${mp.activations} activations, ${mp.master_weights} weights and optimiser; loss scale ${mp.loss_scale ?? 'n/a'} (from ${mp.initial_loss_scale}), ${mp.skipped_steps ?? 'n/a'} skipped step(s)`,
      ),
    );
  else if (b.precision) rows.push(row('Precision', b.precision));
  return rows;
};

/** Title, backend, an interruption, the data and the batches run. */
const headerLines = (r: BenchmarkTrainingReport): string[] => {
  const m = r.training_metrics;
  return [
    ...(r.config.source_synthetic === true ? [sampleDataNote(r.stage, String(r.data_load_method.source)), ''] : []),
    `Training benchmark — Stage ${r.stage}, ${r.model.preset} (${r.model.parameters.toLocaleString('en-US')} parameters)`,
    row(
      'Backend',
      `${r.environment.backend} ${r.environment.backend_version}, ${r.environment.threads} thread(s), ${r.environment.device}`,
    ),
    ...backendStepRows(r.environment.backend_step),
    ...(r.interruption
      ? [
          row(
            'INTERRUPTED',
            `${r.interruption.reason} after ${r.interruption.completed_batches} of ${r.interruption.planned_batches} batches; figures cover those only`,
          ),
        ]
      : []),
    row('Data', String(r.data_load_method.source)),
    row(
      'Batches',
      `${m.total_batches} run, ${m.steady_state_start} warm-up, ${m.measured_batches} measured (batch size ${m.batch_size})`,
    ),
  ];
};

/** Throughput, batch times, the predicted epoch with why the run stopped, and the loss. */
const timingLines = (r: BenchmarkTrainingReport): string[] => {
  const m = r.training_metrics;
  const e = r.epoch_estimate;
  return [
    row(
      'Throughput (steady)',
      `${m.samples_per_second.toFixed(1)} samples/s (95% CI ${formatRateInterval(m.samples_per_second_ci95, m.samples_per_second_ci95_note)})`,
    ),
    row('Batch time (steady)', seriesText(m.batch_ms)),
    row(
      'Batch time incl. warm-up',
      `${ms(m.batch_ms_including_warmup_mean)} mean; warm-up took ${ms(m.warmup_total_ms)}`,
    ),
    row(
      'Predicted epoch',
      `${dur(e.predicted_ms)} (interval ${dur(e.predicted_ms_ci95[0])}–${dur(e.predicted_ms_ci95[1])}${e.half_width_fraction === undefined ? '' : `, ±${(e.half_width_fraction * 100).toFixed(1)} %`}) for ${e.batches_per_epoch} batches`,
    ),
    ...stoppingRows(e),
    row('Loss', `${m.initial_loss.toFixed(4)} → ${m.final_loss.toFixed(4)}`),
  ];
};

/** The human summary of one run, as printed on stdout: one section after the other. @public */
export const renderTrainingSummary = (r: BenchmarkTrainingReport): string =>
  `${[
    ...headerLines(r),
    ...timingLines(r),
    '',
    ...phaseLines('  Where the time goes (steady batches)', r.training_metrics),
    ...validationLines(r),
    ...resourceLimitLines(r.resource_limits),
    ...ioLines(r),
    ...adaptiveBatchLines(r.adaptive_batch),
    ...knobCostLines(r.knob_cost),
    ...estimationLines(r.estimation),
    ...resourceLines(r.resources),
    ...profileLines(r.profile),
    ...recommendationLines(r.recommendations),
  ].join('\n')}\n`;
