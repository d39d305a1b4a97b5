import { formatNoiseScale, formatRateInterval, type BatchStudyReport, type SweepPointOk } from '@maou/bench-domain';
import { PALETTE, baseOption, formatInterval, formatMs, mib, round } from './chart-format';
import type { ChartSpec, ReportPage, TableSpec } from './report-page';
import { recommendationsTable } from './training-summary-charts';

const okPoints = (r: BatchStudyReport): SweepPointOk[] =>
  (r.sweep?.points ?? []).filter((p): p is SweepPointOk => p.status === 'ok');
const label = (r: BatchStudyReport, p: { batch_size: number; learning_rate: number }): string =>
  r.sweep?.type === 'learning_rate' ? String(p.learning_rate) : String(p.batch_size);
// An interval's open end (too few batches) is drawn at the point itself; the table says it is open and why.
const finite = (x: number | null, fallback: number): number => x ?? fallback;

/** A value per sweep point with its 95 % interval drawn as a box (the ECharts boxplot of [lo, lo, mid, hi, hi]). */
const intervalChart = (
  id: string,
  title: string,
  caption: string,
  axis: string,
  r: BatchStudyReport,
  rows: readonly { label: string; value: number; lo: number; hi: number }[],
): ChartSpec => ({
  id,
  title,
  caption,
  option: {
    ...baseOption,
    xAxis: {
      type: 'category',
      name: r.sweep?.type === 'learning_rate' ? 'learning rate' : 'batch size',
      data: rows.map((x) => x.label),
    },
    yAxis: { type: 'value', name: axis, scale: true },
    series: [
      {
        name: '95 % interval',
        type: 'boxplot',
        boxWidth: [10, 24],
        itemStyle: { color: PALETTE.band, borderColor: PALETTE.steady },
        data: rows.map((x) => [round(x.lo, 3), round(x.lo, 3), round(x.value, 3), round(x.hi, 3), round(x.hi, 3)]),
      },
      { name: axis, type: 'line', itemStyle: { color: PALETTE.b }, data: rows.map((x) => round(x.value, 3)) },
    ],
  },
});

const throughputChart = (r: BatchStudyReport): ChartSpec =>
  intervalChart(
    'sweep-throughput',
    'Throughput across the sweep',
    'Steady-state samples/s of each point (line) and its 95 % interval (box); failed points are left out.',
    'samples/s',
    r,
    okPoints(r).map((p) => ({
      label: label(r, p),
      value: p.samples_per_second,
      lo: p.samples_per_second_ci95[0],
      hi: finite(p.samples_per_second_ci95[1], p.samples_per_second),
    })),
  );

const efficiencyChart = (r: BatchStudyReport): ChartSpec => {
  const c = r.critical_batch!;
  return intervalChart(
    'sweep-efficiency',
    'Scaling efficiency',
    `(samples/s ÷ batch) over the smallest batch's: 1 means samples/s grew as fast as the batch. Critical batch size ${c.estimated_cbs}: ${c.recommendation}`,
    'efficiency',
    r,
    okPoints(r).map((p) => {
      const k = String(p.batch_size);
      const e = c.scaling_efficiency[k]!;
      const ci = c.scaling_efficiency_ci95[k]!;
      return { label: k, value: e, lo: ci[0], hi: finite(ci[1], e) };
    }),
  );
};

const lossChart = (r: BatchStudyReport): ChartSpec => ({
  id: 'sweep-loss',
  title: 'Loss at the end of each run',
  caption: 'First and last batch loss of each point; a short run favours fast early progress.',
  option: {
    ...baseOption,
    xAxis: { type: 'category', name: 'learning rate', data: okPoints(r).map((p) => label(r, p)) },
    yAxis: { type: 'value', name: 'loss', scale: true },
    series: [
      {
        name: 'first batch',
        type: 'line',
        itemStyle: { color: PALETTE.warmup },
        data: okPoints(r).map((p) => round(p.initial_loss, 4)),
      },
      {
        name: 'last batch',
        type: 'line',
        itemStyle: { color: PALETTE.steady },
        data: okPoints(r).map((p) => round(p.final_loss, 4)),
      },
    ],
  },
});

const maxBatchChart = (r: BatchStudyReport): ChartSpec => {
  const m = r.max_batch!;
  const point = (fits: boolean) =>
    m.tries
      .filter((t) => t.fits === fits)
      .map((t) => [t.batch_size, t.memory_bytes === null ? 0 : mib(t.memory_bytes)]);
  return {
    id: 'max-batch',
    title: 'Largest batch that fits',
    caption: `${m.max_batch_size} fits${m.first_failing === null ? ' (search cap reached)' : `, ${m.first_failing} does not: ${m.failure_reason}`}. "Fits" means ${m.definition}.`,
    option: {
      ...baseOption,
      tooltip: { trigger: 'item', confine: true },
      xAxis: { type: 'log', name: 'batch size', logBase: 2 },
      yAxis: { type: 'value', name: 'MiB' },
      series: [
        {
          name: 'fits (memory after the step)',
          type: 'scatter',
          symbolSize: 10,
          itemStyle: { color: PALETTE.steady },
          data: point(true),
          ...(m.memory_limit_bytes === null
            ? {}
            : {
                markLine: {
                  symbol: 'none',
                  data: [{ yAxis: mib(m.memory_limit_bytes) }],
                  label: { formatter: 'limit {c} MiB' },
                },
              }),
        },
        {
          name: 'does not fit',
          type: 'scatter',
          symbol: 'triangle',
          symbolSize: 12,
          itemStyle: { color: PALETTE.b },
          data: point(false),
        },
      ],
    },
  };
};

const pointsTable = (r: BatchStudyReport): TableSpec => ({
  id: 'sweep-points',
  title: 'Sweep points',
  columns: [
    r.sweep?.type === 'learning_rate' ? 'learning rate' : 'batch size',
    'status',
    'samples/s',
    '95 % interval',
    'epoch (95 % interval)',
    'batch ms',
    'measured batches',
    'first → last loss',
    'reason',
  ],
  rows: (r.sweep?.points ?? []).map((p) =>
    p.status === 'ok'
      ? [
          label(r, p),
          'ok',
          round(p.samples_per_second, 1),
          formatRateInterval(p.samples_per_second_ci95, p.samples_per_second_ci95_note),
          `${formatMs(p.epoch_ms)} ${formatInterval(p.epoch_ms_ci95[0], p.epoch_ms_ci95[1])} ±${(p.epoch_half_width_fraction * 100).toFixed(1)} %`,
          round(p.batch_ms_mean, 2),
          p.measured_batches,
          `${round(p.initial_loss, 4)} → ${round(p.final_loss, 4)}`,
          null,
        ]
      : [label(r, p), 'failed', null, null, null, null, null, null, `${p.error_kind}: ${p.reason}`],
  ),
  emptyText: 'No sweep was run.',
});

const facts = (r: BatchStudyReport): (readonly [string, string])[] => {
  const out: (readonly [string, string])[] = [
    ['model', r.model.preset],
    ['stage', String(r.stage)],
  ];
  if (r.environment)
    out.push([
      'backend',
      `${r.environment.backend} ${r.environment.backend_version}, ${r.environment.threads} thread(s), ${r.environment.device}`,
    ]);
  if (r.critical_batch)
    out.push([
      'critical batch size (throughput)',
      `${r.critical_batch.estimated_cbs}${r.critical_batch.gradient_noise_scale === null ? '' : ` (median ${r.critical_batch.gradient_noise_scale})`}`,
    ]);
  if (r.critical_batch_skipped) out.push(['critical batch size', `not estimated: ${r.critical_batch_skipped}`]);
  const g = r.gradient_noise;
  if (g)
    out.push(['gradient noise scale (measured)', `${formatNoiseScale(g, false)} over ${g.steps} updates; ${g.note}`]);
  if (g?.comparison) out.push(['throughput CBS vs B_simple', g.comparison.note]);
  if (r.gradient_noise_skipped) out.push(['gradient noise scale', `not measured: ${r.gradient_noise_skipped}`]);
  if (r.max_batch) out.push(['largest batch that fits', String(r.max_batch.max_batch_size)]);
  return out;
};

/** The page of a batch study: throughput and efficiency across the sweep with intervals, the max-batch search. @public */
export const batchStudyReportPage = (r: BatchStudyReport): ReportPage => {
  const charts: ChartSpec[] = [];
  if (okPoints(r).length > 0) charts.push(throughputChart(r));
  if (r.critical_batch) charts.push(efficiencyChart(r));
  if (r.sweep?.type === 'learning_rate' && okPoints(r).length > 0) charts.push(lossChart(r));
  if (r.max_batch && r.max_batch.tries.length > 0) charts.push(maxBatchChart(r));
  return {
    title: `maou benchmark-training: batch study (${r.model.preset})`,
    subtitle: `Stage ${r.stage}, run at ${r.created_at}. Each sweep point is a full measured run; intervals are 95 %.`,
    facts: facts(r),
    charts,
    tables: [pointsTable(r), recommendationsTable(r)],
    payload: r,
  };
};
