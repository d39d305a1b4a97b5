import type { BenchmarkTrainingReport, ResourceSummary } from '@maou/bench-domain';
import { PALETTE, baseOption, formatInterval, formatMs, mib, round, timeUnitFor } from './chart-format';
import type { ChartSpec, TableSpec } from './report-page';

interface Interval {
  readonly label: string;
  readonly ms: number;
  readonly ci: readonly [number, number];
}

// One row per interval, each on its own axis: a sampled epoch in minutes and an extrapolated one in hours
// would squash each other on a shared axis.
const intervalRow = (interval: Interval, k: number) => {
  const unit = timeUnitFor(interval.ci[1]);
  const scale = (ms: number): number => round(ms / unit.ms, 3);
  // Padded by 60 % of the interval on each side so the box reads as an interval, but never below 0 s: an epoch
  // takes no negative time (a boundary gap let the axis start at −3 s).
  const pad = Math.max(0.6 * (interval.ci[1] - interval.ci[0]), 0.05 * interval.ci[1]);
  const axis = { min: scale(Math.max(0, interval.ci[0] - pad)), max: scale(interval.ci[1] + pad) };
  return {
    grid: { left: 170, right: 40, top: 40 + 90 * k, height: 40 },
    xAxis: { type: 'value', name: unit.name, gridIndex: k, ...axis },
    yAxis: { type: 'category', data: [interval.label], gridIndex: k },
    series: [
      {
        name: '95 % interval',
        type: 'boxplot',
        xAxisIndex: k,
        yAxisIndex: k,
        boxWidth: [18, 28],
        itemStyle: { color: PALETTE.band, borderColor: PALETTE.steady },
        data: [
          [
            scale(interval.ci[0]),
            scale(interval.ci[0]),
            scale(interval.ms),
            scale(interval.ci[1]),
            scale(interval.ci[1]),
          ],
        ],
      },
      {
        name: 'prediction',
        type: 'scatter',
        xAxisIndex: k,
        yAxisIndex: k,
        symbolSize: 12,
        itemStyle: { color: PALETTE.b },
        data: [[scale(interval.ms), 0]],
      },
    ],
  };
};

/** The predicted epoch time as an interval; the sampled-to-full extrapolation too when present. @internal */
export const epochChart = (report: BenchmarkTrainingReport): ChartSpec => {
  const e = report.epoch_estimate;
  const intervals: Interval[] = [{ label: 'epoch (this data)', ms: e.predicted_ms, ci: e.predicted_ms_ci95 }];
  if (report.estimation) {
    intervals.push({
      label: 'full epoch (extrapolated)',
      ms: report.estimation.full_epoch_ms,
      ci: report.estimation.full_epoch_ms_ci95,
    });
  }
  const rows = intervals.map(intervalRow);
  return {
    id: 'epoch',
    title: 'Predicted epoch time',
    caption:
      `${formatMs(e.predicted_ms)}, 95 % interval ${formatInterval(e.predicted_ms_ci95[0], e.predicted_ms_ci95[1])}, ` +
      `${e.batches_per_epoch} batches incl. ${formatMs(e.warmup_cost_ms)} warm-up cost. Method: ${e.method}`,
    height: 40 + 90 * intervals.length,
    option: {
      tooltip: { trigger: 'item', confine: true },
      legend: { top: 8, data: ['95 % interval', 'prediction'] },
      grid: rows.map((r) => r.grid),
      xAxis: rows.map((r) => r.xAxis),
      yAxis: rows.map((r) => r.yAxis),
      series: rows.flatMap((r) => r.series),
    },
  };
};

/** CPU and GPU use (left axis) and memory (right axis) over the run. @internal */
export const resourcesChart = (resources: ResourceSummary): ChartSpec => {
  const t = (ms: number): number => round(ms / 1000, 3);
  const line = (name: string, yAxisIndex: number, pick: (s: ResourceSummary['timeline'][number]) => number | null) => ({
    name,
    type: 'line',
    showSymbol: resources.timeline.length < 40,
    yAxisIndex,
    data: resources.timeline.filter((s) => pick(s) !== null).map((s) => [t(s.t_ms), pick(s)]),
  });
  const series = [
    line('CPU %', 0, (s) => round(s.cpu_percent, 1)),
    line('RSS MiB', 1, (s) => mib(s.rss_bytes)),
    line('heap MiB', 1, (s) => mib(s.heap_used_bytes)),
  ];
  if (resources.timeline.some((s) => s.gpu_util_percent !== null))
    series.push(line('GPU %', 0, (s) => s.gpu_util_percent));
  return {
    id: 'resources',
    title: 'Resources over the run',
    caption:
      `Sampled every ${resources.interval_ms} ms (${resources.samples} samples). CPU mean ${round(resources.cpu_percent.mean, 1)} %, ` +
      `peak RSS ${mib(resources.rss_bytes.peak)} MiB.`,
    option: {
      ...baseOption,
      grid: { ...baseOption.grid, right: 64 },
      xAxis: { type: 'value', name: 's' },
      yAxis: [
        { type: 'value', name: '%', min: 0 },
        { type: 'value', name: 'MiB', min: 0, splitLine: { show: false } },
      ],
      series,
    },
  };
};

/** Fired recommendation rules, most severe first. @internal */
export const recommendationsTable = (report: Pick<BenchmarkTrainingReport, 'recommendations'>): TableSpec => {
  const order = { warning: 0, suggestion: 1, info: 2 } as const;
  return {
    id: 'recommendations',
    title: 'Recommendations',
    columns: ['severity', 'rule', 'advice', 'flag', 'value', 'evidence'],
    rows: [...report.recommendations]
      .sort((x, y) => order[x.severity] - order[y.severity])
      .map((r) => [r.severity, r.rule, r.message, r.flag, r.value, r.evidence]),
    emptyText: 'No rule fired: nothing to change.',
  };
};
