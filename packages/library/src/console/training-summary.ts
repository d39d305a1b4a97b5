import { formatRateInterval, PHASES, type BenchmarkTrainingReport, type SeriesSummary } from '@maou/bench-domain';
import { sampleDataNote } from './sample-data-note';
import { recommendationLines } from './recommendation-lines';
import { adaptiveBatchLines } from './adaptive-batch-lines';
import { knobCostLines } from './knob-cost-lines';
import { formatMs as ms, labelledRow as row } from './console-text';

const dur = (x: number): string =>
  x >= 3_600_000 ? `${(x / 3_600_000).toFixed(2)} h` : x >= 60_000 ? `${(x / 60_000).toFixed(1)} min` : ms(x);
// An interval of a positive quantity is shown from 0 at least; a wide one says how few batches it rests on.
const series = (s: SeriesSummary): string =>
  `${ms(s.mean)} mean, ${ms(s.median)} median, p90 ${ms(s.p90)}, p99 ${ms(s.p99)}, 95% CI ${ms(Math.max(0, s.ci95[0]))}–${ms(s.ci95[1])} (n=${s.n})`;

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

/** The human summary of one run, as printed on stdout. @public */
export const renderTrainingSummary = (r: BenchmarkTrainingReport): string => {
  const m = r.training_metrics;
  const e = r.epoch_estimate;
  const lines = [
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
    row(
      'Throughput (steady)',
      `${m.samples_per_second.toFixed(1)} samples/s (95% CI ${formatRateInterval(m.samples_per_second_ci95, m.samples_per_second_ci95_note)})`,
    ),
    row('Batch time (steady)', series(m.batch_ms)),
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
    '',
    '  Where the time goes (steady batches)',
    ...PHASES.map((p) =>
      row(`    ${p}`, `${ms(m.phase_ms[p].mean).padStart(10)}  ${(m.phase_share[p] * 100).toFixed(1).padStart(5)} %`),
    ),
  ];
  if (r.validation_metrics) {
    const v = r.validation_metrics;
    lines.push(
      '',
      row(
        'Validation',
        `${v.batches} batches, ${v.samples_per_second.toFixed(1)} samples/s, loss ${v.loss.toFixed(4)}`,
      ),
      ...Object.entries(v.metrics).map(([k, x]) => row(`    ${k}`, x.toFixed(4))),
      '  Where the validation time goes',
      ...PHASES.map((p) =>
        row(`    ${p}`, `${ms(v.phase_ms[p].mean).padStart(10)}  ${(v.phase_share[p] * 100).toFixed(1).padStart(5)} %`),
      ),
    );
  } else if (r.null_reasons.validation_metrics) {
    lines.push('', row('Validation', `skipped: ${r.null_reasons.validation_metrics}`));
  }
  if (r.resource_limits) {
    const l = r.resource_limits;
    lines.push(
      '',
      row(
        'Resource limits',
        `cgroup ${l.cgroup}, ${l.cpu_cores} usable core(s) (affinity ${l.affinity_cpus}, quota ${l.cpu_quota_cores ?? 'none'}), ${(l.memory_bytes / 2 ** 30).toFixed(1)} GiB memory`,
      ),
      ...l.decisions.map((d) => row(`    ${d.setting}`, `${d.value ?? 'no cap'} (${d.origin}: ${d.reason})`)),
    );
  }
  if (r.io && r.config.source_sampled === true) {
    const io = r.io as {
      source?: string;
      objects?: number;
      bytes?: number;
      megabytesPerSecond?: number | null;
      timeToFirstByteMs?: number | null;
      retries?: number;
      cacheHits?: number;
    };
    lines.push(
      '',
      row(
        `I/O (${io.source})`,
        `${io.objects} objects, ${((io.bytes ?? 0) / 1e6).toFixed(1)} MB, ${io.megabytesPerSecond == null ? '–' : io.megabytesPerSecond.toFixed(0)} MB/s, first byte ${io.timeToFirstByteMs == null ? '–' : ms(io.timeToFirstByteMs)}, ${io.retries} retries, ${io.cacheHits} cache hits`,
      ),
    );
  }
  lines.push(...adaptiveBatchLines(r.adaptive_batch));
  lines.push(...knobCostLines(r.knob_cost));
  if (r.estimation)
    lines.push('', row('Full dataset (from sample)', `${dur(r.estimation.full_epoch_ms)} — ${r.estimation.method}`));
  if (r.resources) {
    const res = r.resources;
    lines.push(
      '',
      row('CPU', `${res.cpu_percent.mean.toFixed(0)} % mean, ${res.cpu_percent.peak.toFixed(0)} % peak`),
      row('RSS', `${(res.rss_bytes.peak / 2 ** 20).toFixed(0)} MiB peak`),
    );
    if (res.gpu_util_percent)
      lines.push(
        row('GPU', `${res.gpu_util_percent.mean.toFixed(0)} % mean, ${res.gpu_util_percent.peak.toFixed(0)} % peak`),
      );
  }
  if (r.profile)
    lines.push(
      '',
      '  Top kernels',
      ...r.profile.by_kernel.slice(0, 8).map((k) => row(`    ${k.kernel}`, `${ms(k.total_ms)} in ${k.calls} calls`)),
    );
  lines.push(...recommendationLines(r.recommendations));
  return `${lines.join('\n')}\n`;
};
