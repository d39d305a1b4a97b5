import { baseOption, round } from './chart-format';
import type { ChartSpec, ReportPage, TableSpec } from './report-page';

/** One measured loader setting of the grid. @public */
export interface DataloaderGridCell {
  readonly workers: number;
  readonly prefetch: number;
  readonly batch_size: number;
  readonly samples_per_second: number;
  /** run-to-run spread of samples/s as a fraction of the mean (e.g. 0.04 = ±4 %) */
  readonly relative_spread: number;
}

/**
 * What the HTML writer needs from a `benchmark-dataloader` run: the workers × prefetch × batch-size grid.
 * The use case's result type maps onto this (it may carry more).
 * @public
 */
export interface DataloaderReportInput {
  readonly title?: string;
  readonly source: string;
  readonly grid: readonly DataloaderGridCell[];
}

const sortedUnique = (values: readonly number[]): number[] => [...new Set(values)].sort((a, b) => a - b);

const rowLabel = (batch: number, prefetch: number): string => `batch ${batch} · prefetch ${prefetch}`;

/** Heat map: workers across, (batch size, prefetch) down, colour = samples/s. @internal */
const gridHeatMap = (input: DataloaderReportInput): ChartSpec => {
  const workers = sortedUnique(input.grid.map((c) => c.workers));
  const rows = sortedUnique(input.grid.map((c) => c.batch_size)).flatMap((b) =>
    sortedUnique(input.grid.filter((c) => c.batch_size === b).map((c) => c.prefetch)).map((p) => rowLabel(b, p)));
  const rates = input.grid.map((c) => c.samples_per_second);
  return {
    id: 'loader-grid',
    title: 'Loader throughput: workers × prefetch × batch size',
    caption: 'Each cell is samples/s delivered by the loader alone (no training). Darker is faster.',
    height: Math.max(260, 90 + 34 * rows.length),
    option: {
      tooltip: { trigger: 'item', confine: true },
      grid: { left: 170, right: 40, top: 30, bottom: 90 },
      xAxis: { type: 'category', name: 'workers', data: workers.map(String), splitArea: { show: true } },
      yAxis: { type: 'category', data: rows, splitArea: { show: true } },
      visualMap: { min: Math.min(...rates), max: Math.max(...rates), calculable: true, orient: 'horizontal', left: 'center', bottom: 8,
        text: ['fast', 'slow'], inRange: { color: ['#f1f5fd', '#8fb0ef', '#1f4fb3'] } },
      series: [{
        name: 'samples/s', type: 'heatmap', label: { show: true },
        data: input.grid.map((c) => [workers.indexOf(c.workers), rows.indexOf(rowLabel(c.batch_size, c.prefetch)), round(c.samples_per_second, 0)]),
      }],
    },
  };
};

/** Best setting per batch size with its spread, as error bars. @internal */
const bestPerBatchChart = (input: DataloaderReportInput): ChartSpec => {
  const best = sortedUnique(input.grid.map((c) => c.batch_size)).map((b) =>
    input.grid.filter((c) => c.batch_size === b).reduce((x, y) => (y.samples_per_second > x.samples_per_second ? y : x)));
  return {
    id: 'loader-best',
    title: 'Best setting per batch size',
    caption: 'Bar: fastest cell for each batch size; whiskers: its run-to-run spread.',
    option: {
      ...baseOption,
      xAxis: { type: 'category', name: 'batch size', data: best.map((c) => String(c.batch_size)) },
      yAxis: { type: 'value', name: 'samples/s' },
      series: [
        { name: 'samples/s', type: 'bar', itemStyle: { color: '#3b6fd8' }, data: best.map((c) => round(c.samples_per_second, 1)) },
        { name: 'spread', type: 'boxplot', itemStyle: { color: 'transparent', borderColor: '#1d2433' }, data: best.map((c) => {
          const lo = c.samples_per_second * (1 - c.relative_spread);
          const hi = c.samples_per_second * (1 + c.relative_spread);
          return [lo, lo, c.samples_per_second, hi, hi].map((v) => round(v, 1));
        }) },
      ],
    },
  };
};

const gridTable = (input: DataloaderReportInput): TableSpec => ({
  id: 'loader-cells',
  title: 'All settings, fastest first',
  columns: ['workers', 'prefetch', 'batch size', 'samples/s', 'spread'],
  rows: [...input.grid].sort((x, y) => y.samples_per_second - x.samples_per_second)
    .map((c) => [c.workers, c.prefetch, c.batch_size, round(c.samples_per_second, 1), `±${round(c.relative_spread * 100, 1)} %`]),
  emptyText: 'The grid is empty.',
});

/** The page of a `benchmark-dataloader` report. @public */
export const dataloaderReportPage = (input: DataloaderReportInput): ReportPage => {
  const fastest = input.grid.reduce<DataloaderGridCell | null>((x, y) => (x === null || y.samples_per_second > x.samples_per_second ? y : x), null);
  return {
    title: input.title ?? 'maou benchmark-dataloader',
    subtitle: `Source: ${input.source}`,
    facts: [
      ['settings measured', String(input.grid.length)],
      ['fastest', fastest ? `${round(fastest.samples_per_second, 1)} samples/s` : 'n/a'],
      ['at', fastest ? `workers ${fastest.workers}, prefetch ${fastest.prefetch}, batch ${fastest.batch_size}` : 'n/a'],
    ],
    charts: input.grid.length > 0 ? [gridHeatMap(input), bestPerBatchChart(input)] : [],
    tables: [gridTable(input)],
    payload: input,
  };
};
