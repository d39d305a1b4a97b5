import { quantileSorted, type BenchmarkCompareReport } from '@maou/bench-domain';
import { PALETTE, baseOption, round } from './chart-format';
import type { ChartSpec, ReportPage, TableSpec } from './report-page';

const VERDICT: Readonly<Record<BenchmarkCompareReport['comparison']['verdict'], string>> = {
  'b-faster': 'B is faster',
  'b-slower': 'B is slower',
  'no-significant-difference': 'no significant difference',
};

// Box-plot five numbers from the raw batch times: min, quartiles, median, max.
const five = (batchMs: readonly number[]): number[] => {
  const sorted = [...batchMs].sort((x, y) => x - y);
  return [0, 0.25, 0.5, 0.75, 1].map((q) => round(quantileSorted(sorted, q), 3));
};

// An axis end on a round step (0.05 for a span of 0.4), so tick labels stay short.
const niceStep = (span: number): number => 10 ** Math.floor(Math.log10(span || 0.01)) / 2;

const samplesChart = (r: BenchmarkCompareReport): ChartSpec => ({
  id: 'compare-samples',
  title: 'Steady-state batch times of both runs',
  caption: `A: ${r.a.label} (${r.a.batch_ms.length} batches), B: ${r.b.label} (${r.b.batch_ms.length} batches).`,
  option: {
    ...baseOption,
    xAxis: { type: 'value', name: 'batch', min: 0 },
    yAxis: { type: 'value', name: 'ms', scale: true },
    series: [
      {
        name: `A: ${r.a.label}`,
        type: 'line',
        showSymbol: false,
        itemStyle: { color: PALETTE.a },
        data: r.a.batch_ms.map((v, i) => [i, round(v, 3)]),
      },
      {
        name: `B: ${r.b.label}`,
        type: 'line',
        showSymbol: false,
        itemStyle: { color: PALETTE.b },
        data: r.b.batch_ms.map((v, i) => [i, round(v, 3)]),
      },
    ],
  },
});

const distributionChart = (r: BenchmarkCompareReport): ChartSpec => ({
  id: 'compare-distribution',
  title: 'Batch-time distributions',
  caption: 'Whiskers: fastest and slowest batch; box: middle half of the batches; line: median.',
  height: 260,
  option: {
    ...baseOption,
    tooltip: { trigger: 'item', confine: true },
    grid: { left: 90, right: 40, top: 30, bottom: 40 },
    yAxis: { type: 'category', data: ['A', 'B'] },
    xAxis: { type: 'value', name: 'ms', scale: true },
    series: [
      {
        name: 'batch ms',
        type: 'boxplot',
        data: [
          { value: five(r.a.batch_ms), itemStyle: { borderColor: PALETTE.a } },
          { value: five(r.b.batch_ms), itemStyle: { borderColor: PALETTE.b } },
        ],
      },
    ],
  },
});

const ratioChart = (r: BenchmarkCompareReport): ChartSpec => {
  const c = r.comparison;
  // Keep 1 (no change) on the axis so the distance of the interval from it is visible.
  const lo = Math.min(1, c.ratio_ci95[0]);
  const hi = Math.max(1, c.ratio_ci95[1]);
  const step = niceStep(hi - lo);
  return {
    id: 'compare-ratio',
    title: 'Ratio of mean batch time (B ÷ A)',
    caption: `${round(c.ratio, 4)} with 95 % interval [${round(c.ratio_ci95[0], 4)}, ${round(c.ratio_ci95[1], 4)}]; below 1 means B is faster.`,
    height: 200,
    option: {
      tooltip: { trigger: 'item', confine: true },
      grid: { left: 90, right: 40, top: 30, bottom: 40 },
      yAxis: { type: 'category', data: ['B ÷ A'] },
      xAxis: {
        type: 'value',
        interval: step,
        min: round(Math.floor(lo / step - 0.5) * step, 6),
        max: round(Math.ceil(hi / step + 0.5) * step, 6),
      },
      series: [
        {
          name: '95 % interval',
          type: 'boxplot',
          itemStyle: { color: PALETTE.band, borderColor: PALETTE.steady },
          data: [[c.ratio_ci95[0], c.ratio_ci95[0], c.ratio, c.ratio_ci95[1], c.ratio_ci95[1]].map((v) => round(v, 5))],
          markLine: { symbol: 'none', data: [{ xAxis: 1, name: 'no change' }], label: { formatter: 'no change' } },
        },
        {
          name: 'ratio',
          type: 'scatter',
          symbolSize: 12,
          itemStyle: { color: PALETTE.b },
          data: [[round(c.ratio, 5), 0]],
        },
      ],
    },
  };
};

const show = (v: unknown): string => (v === undefined ? '(absent)' : typeof v === 'string' ? v : JSON.stringify(v));

const diffTable = (id: string, title: string, rows: BenchmarkCompareReport['environment_diff']): TableSpec => ({
  id,
  title,
  columns: ['key', 'A', 'B'],
  rows: rows.map((d) => [d.key, show(d.a), show(d.b)]),
  emptyText: 'Identical in both runs.',
});

/** The page of a `benchmark-compare` report. @public */
export const compareReportPage = (r: BenchmarkCompareReport): ReportPage => {
  const c = r.comparison;
  return {
    title: `maou benchmark-compare: ${VERDICT[c.verdict]}`,
    subtitle: `A = ${r.a.path}, B = ${r.b.path}. ${c.method}.`,
    facts: [
      ['verdict', VERDICT[c.verdict]],
      ['ratio B ÷ A', `${round(c.ratio, 4)} [${round(c.ratio_ci95[0], 4)}, ${round(c.ratio_ci95[1], 4)}]`],
      ['p-value', `${c.p_value < 1e-6 ? c.p_value.toExponential(2) : round(c.p_value, 4)} (alpha ${c.alpha})`],
      ['Welch t', `${round(c.welch_t, 3)}, df ${round(c.degrees_of_freedom, 1)}`],
      ['A samples/s', `${round(r.a.samples_per_second, 1)}`],
      ['B samples/s', `${round(r.b.samples_per_second, 1)}`],
    ],
    charts: [samplesChart(r), distributionChart(r), ratioChart(r)],
    tables: [
      diffTable('environment-diff', 'Environment differences', r.environment_diff),
      diffTable('config-diff', 'Configuration differences', r.config_diff),
    ],
    payload: r,
  };
};
