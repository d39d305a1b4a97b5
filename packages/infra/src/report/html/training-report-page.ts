import { formatRateInterval, type BenchmarkTrainingReport } from '@maou/bench-domain';
import { formatInterval, formatMs, round } from './chart-format';
import type { ChartSpec, ReportPage } from './report-page';
import { epochChart, recommendationsTable, resourcesChart } from './training-summary-charts';
import { batchTimeChart, phaseBreakdownChart, throughputChart } from './training-timing-charts';

const facts = (r: BenchmarkTrainingReport): (readonly [string, string])[] => {
  const m = r.training_metrics;
  return [
    ['model', `${r.model.preset} (${r.model.parameters.toLocaleString('en')} parameters)`],
    ['stage', String(r.stage)],
    ['backend', `${r.environment.backend} ${r.environment.backend_version} on ${r.environment.device}`],
    ['batch size', String(m.batch_size)],
    [
      'throughput',
      `${round(m.samples_per_second, 1)} samples/s (95 % interval ${formatRateInterval(m.samples_per_second_ci95, m.samples_per_second_ci95_note)})`,
    ],
    ['batch time (median)', `${round(m.batch_ms.median, 2)} ms (p90 ${round(m.batch_ms.p90, 2)} ms)`],
    ['measured batches', `${m.measured_batches} of ${m.total_batches}`],
    [
      'epoch estimate',
      `${formatMs(r.epoch_estimate.predicted_ms)} ${formatInterval(...r.epoch_estimate.predicted_ms_ci95)}`,
    ],
    ['loss', `${round(m.initial_loss, 4)} → ${round(m.final_loss, 4)}`],
    ['host', `${r.environment.cpu_model} ×${r.environment.cpus}, node ${r.environment.node}`],
    ...adaptiveFacts(r),
    ...knobFacts(r),
  ];
};

const change = (x: number | null): string =>
  x === null ? '–' : `${x >= 0 ? '+' : '−'}${round(Math.abs(x) * 100, 1)} %`;

const knobFacts = (r: BenchmarkTrainingReport): (readonly [string, string])[] => {
  const k = r.knob_cost;
  if (!k) return [];
  const mib = (b: number | null): string => (b === null ? '–' : `${round(b / 2 ** 20, 0)} MiB`);
  return [
    [
      `${k.knobs.join(' ')} against none`,
      `step ${formatMs(k.with.step_ms)} vs ${formatMs(k.without.step_ms)} (${change(k.step_change)}); ` +
        `backward ${formatMs(k.with.backward_ms)} vs ${formatMs(k.without.backward_ms)} (${change(k.backward_change)}); ` +
        `peak live tensors ${mib(k.with.peak_tensor_bytes)} vs ${mib(k.without.peak_tensor_bytes)} (${change(k.peak_tensor_change)})`,
    ],
  ];
};

const adaptiveFacts = (r: BenchmarkTrainingReport): (readonly [string, string])[] => {
  const a = r.adaptive_batch;
  if (!a) return [];
  const noise = a.smoothed_noise_scale === null ? 'not measured' : round(a.smoothed_noise_scale, 1);
  return [
    [
      'adaptive batch',
      `steps ${a.steps_chosen.map((c) => `${c.accumulation_steps} from batch ${c.from_batch}`).join(', ')}; noise scale (EMA) ${noise}`,
    ],
  ];
};

const interruptedNote = (r: BenchmarkTrainingReport): string => {
  const i = r.interruption;
  return i
    ? `Interrupted (${i.reason}) after ${i.completed_batches} of ${i.planned_batches} batches: the figures cover those batches only. `
    : '';
};

/** The page of a `benchmark-training` report: charts that have data, plus the recommendations. @public */
export const trainingReportPage = (report: BenchmarkTrainingReport): ReportPage => {
  const charts: ChartSpec[] = [];
  if (report.batches.length > 0)
    charts.push(batchTimeChart(report), phaseBreakdownChart(report), throughputChart(report));
  charts.push(epochChart(report));
  if (report.resources && report.resources.timeline.length > 0) charts.push(resourcesChart(report.resources));
  return {
    title: `maou benchmark-training: ${report.model.preset}`,
    subtitle: `${interruptedNote(report)}Stage ${report.stage}, run at ${report.created_at}. Only steady-state batches count towards the statistics.`,
    facts: facts(report),
    charts,
    tables: [recommendationsTable(report)],
    payload: report,
  };
};
