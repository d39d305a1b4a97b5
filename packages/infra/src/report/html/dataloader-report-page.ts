import type { BenchmarkDataloaderOutput, GridPoint } from '@maou/bench-use-cases';
import { PALETTE, baseOption, round } from './chart-format';
import type { ChartSpec, ReportPage, TableSpec } from './report-page';

const sortedUnique = <T extends number | null>(values: readonly T[]): T[] =>
  [...new Set(values)].sort((a, b) => (a ?? -1) - (b ?? -1));

const rowLabel = (p: Pick<GridPoint, 'batchSize' | 'prefetchFactor'>): string =>
  `batch ${p.batchSize} · prefetch ${p.prefetchFactor ?? '-'}`;

// (max − min) / median of the repeats: how much one setting moved between runs.
const spread = (p: GridPoint): number => (p.samplesPerSecond.max - p.samplesPerSecond.min) / p.samplesPerSecond.median;

/** Heat map: workers across, (batch size, prefetch) down, colour = median samples/s over the repeats. @internal */
const gridHeatMap = (out: BenchmarkDataloaderOutput): ChartSpec => {
  const workers = sortedUnique(out.points.map((p) => p.workers));
  const rows = sortedUnique(out.points.map((p) => p.batchSize)).flatMap((b) =>
    sortedUnique(out.points.filter((p) => p.batchSize === b).map((p) => p.prefetchFactor)).map((f) =>
      rowLabel({ batchSize: b, prefetchFactor: f }),
    ),
  );
  const rates = out.points.map((p) => p.samplesPerSecond.median);
  return {
    id: 'loader-grid',
    title: 'Loader throughput: workers × prefetch × batch size',
    caption:
      'Each cell is the median samples/s the loader delivered on its own (no training) over the repeats. Darker is faster.',
    height: Math.max(260, 110 + 34 * rows.length),
    option: {
      tooltip: { trigger: 'item', confine: true },
      grid: { left: 170, right: 40, top: 30, bottom: 90 },
      xAxis: { type: 'category', name: 'workers', data: workers.map(String), splitArea: { show: true } },
      yAxis: { type: 'category', data: rows, splitArea: { show: true } },
      visualMap: {
        min: Math.min(...rates),
        max: Math.max(...rates),
        calculable: true,
        orient: 'horizontal',
        left: 'center',
        bottom: 8,
        text: ['fast', 'slow'],
        inRange: { color: ['#f1f5fd', '#8fb0ef', '#1f4fb3'] },
      },
      series: [
        {
          name: 'samples/s',
          type: 'heatmap',
          label: { show: true },
          data: out.points.map((p) => [
            workers.indexOf(p.workers),
            rows.indexOf(rowLabel(p)),
            round(p.samplesPerSecond.median, 0),
          ]),
        },
      ],
    },
  };
};

/** Chosen setting per batch size against the model's own consumption rate; whiskers: min..max of the repeats. @internal */
const perBatchSizeChart = (out: BenchmarkDataloaderOutput): ChartSpec => {
  const chosen = out.perBatchSize.map((r) => ({
    r,
    p: out.points.find(
      (p) => p.batchSize === r.batchSize && p.workers === r.workers && p.prefetchFactor === r.prefetchFactor,
    ),
  }));
  const model = out.perBatchSize.map((r) => out.consumption[r.batchSize] ?? null);
  const series: Record<string, unknown>[] = [
    {
      name: 'loader samples/s (chosen setting)',
      type: 'bar',
      itemStyle: { color: PALETTE.steady },
      data: chosen.map(({ r }) => round(r.loaderSamplesPerSecond, 1)),
    },
    {
      name: 'spread of repeats',
      type: 'boxplot',
      itemStyle: { color: 'transparent', borderColor: '#1d2433' },
      data: chosen.map(({ r, p }) => {
        const s = p?.samplesPerSecond ?? {
          min: r.loaderSamplesPerSecond,
          max: r.loaderSamplesPerSecond,
          median: r.loaderSamplesPerSecond,
        };
        return [s.min, s.min, s.median, s.max, s.max].map((v) => round(v, 1));
      }),
    },
  ];
  if (model.some((m) => m !== null)) {
    series.push({
      name: 'model consumes samples/s',
      type: 'scatter',
      symbol: 'diamond',
      symbolSize: 16,
      itemStyle: { color: PALETTE.b },
      data: model.map((m) => (m === null ? null : round(m, 1))),
    });
  }
  return {
    id: 'loader-per-batch-size',
    title: 'Chosen setting per batch size',
    caption:
      'Bar: the setting picked for each batch size; whiskers: slowest and fastest repeat; diamond: what training consumes. A bar above its diamond keeps the model fed.',
    option: {
      ...baseOption,
      xAxis: { type: 'category', name: 'batch size', data: out.perBatchSize.map((r) => String(r.batchSize)) },
      yAxis: { type: 'value', name: 'samples/s' },
      series,
    },
  };
};

const gridTable = (out: BenchmarkDataloaderOutput): TableSpec => ({
  id: 'loader-cells',
  title: 'All settings, fastest first',
  columns: [
    'batch size',
    'workers',
    'prefetch',
    'samples/s (median)',
    'min..max',
    'spread',
    'p95 wait ms',
    'keeps model fed',
  ],
  rows: [...out.points]
    .sort((x, y) => y.samplesPerSecond.median - x.samplesPerSecond.median)
    .map((p) => [
      p.batchSize,
      p.workers,
      p.prefetchFactor ?? '-',
      round(p.samplesPerSecond.median, 1),
      `${round(p.samplesPerSecond.min, 1)}..${round(p.samplesPerSecond.max, 1)}`,
      `${round(spread(p) * 100, 1)} %`,
      round(p.p95WaitMs, 2),
      p.keepsModelFed === null ? 'not measured' : p.keepsModelFed ? 'yes' : 'no',
    ]),
  emptyText: 'The grid is empty.',
});

const recommendationsTable = (out: BenchmarkDataloaderOutput): TableSpec => ({
  id: 'loader-recommendations',
  title: 'Recommended flags',
  columns: ['batch size', 'flags', 'loader samples/s', 'model samples/s', 'basis'],
  rows: out.perBatchSize.map((r) => [
    r.batchSize,
    r.flags.join(' '),
    round(r.loaderSamplesPerSecond, 1),
    r.modelSamplesPerSecond === null ? 'not measured' : round(r.modelSamplesPerSecond, 1),
    r.basis,
  ]),
  emptyText: 'No recommendation.',
});

/** The page of a `benchmark-dataloader` report. @public */
export const dataloaderReportPage = (out: BenchmarkDataloaderOutput): ReportPage => ({
  title: 'maou benchmark-dataloader',
  subtitle: `Dataset ${out.dataset} (${out.loaderMode}), backend ${out.backend} on ${out.device}.`,
  facts: [
    ['settings measured', String(out.points.length)],
    ['recommended', out.recommended.flags.join(' ')],
    ['loader rate there', `${round(out.recommended.loaderSamplesPerSecond, 1)} samples/s`],
    [
      'model consumes',
      out.recommended.modelSamplesPerSecond === null
        ? 'not measured'
        : `${round(out.recommended.modelSamplesPerSecond, 1)} samples/s`,
    ],
    ['basis', out.recommended.basis],
  ],
  charts: out.points.length > 0 ? [gridHeatMap(out), perBatchSizeChart(out)] : [],
  tables: [recommendationsTable(out), gridTable(out)],
  payload: out,
});
