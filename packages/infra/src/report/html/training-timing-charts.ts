import { formatRateInterval, PHASES, type BenchmarkTrainingReport } from '@maou/bench-domain';
import { PALETTE, baseOption, percent, round } from './chart-format';
import type { ChartSpec } from './report-page';

type Batch = BenchmarkTrainingReport['batches'][number];

const PHASE_LABELS: Readonly<Record<(typeof PHASES)[number], string>> = {
  dataWait: 'data wait',
  hostToDevice: 'host → device',
  forward: 'forward',
  loss: 'loss',
  backward: 'backward',
  optimizer: 'optimizer',
  other: 'other',
};

// Three kinds of batch: declared warm-up, detected settling (excluded too), and measured steady state.
const kindOf = (b: Batch, steadyStart: number): 'warmup' | 'settling' | 'steady' =>
  b.warmup ? 'warmup' : b.index < steadyStart ? 'settling' : 'steady';

const steadyMarker = (steadyStart: number, lastIndex: number) => ({
  silent: true,
  itemStyle: { color: 'rgba(176, 183, 195, 0.18)' },
  label: { show: false },
  data:
    steadyStart > 0
      ? [[{ xAxis: -0.5, name: 'excluded from statistics' }, { xAxis: Math.min(steadyStart, lastIndex) - 0.5 }]]
      : [],
});

/** Batch wall time over the run, warm-up and steady state marked. @internal */
export const batchTimeChart = (report: BenchmarkTrainingReport): ChartSpec => {
  const m = report.training_metrics;
  const last = report.batches.at(-1)?.index ?? 0;
  const series = (['warmup', 'settling', 'steady'] as const).map((kind) => ({
    name: { warmup: 'warm-up', settling: 'settling (excluded)', steady: 'steady state' }[kind],
    type: 'scatter',
    symbolSize: 7,
    itemStyle: { color: PALETTE[kind] },
    data: report.batches
      .filter((b) => kindOf(b, m.steady_state_start) === kind)
      .map((b) => [b.index, round(b.wallMs, 3)]),
    ...(kind === 'steady'
      ? {
          markLine: {
            symbol: 'none',
            data: [{ yAxis: round(m.batch_ms.mean, 3), name: 'steady mean' }],
            label: { formatter: 'mean {c} ms', position: 'insideEndTop' },
          },
          markArea: steadyMarker(m.steady_state_start, last),
        }
      : {}),
  }));
  return {
    id: 'batch-time',
    title: 'Batch time over the run',
    caption: `${m.warmup_batches} warm-up batches; steady state from batch ${m.steady_state_start}; shaded batches are not counted.`,
    option: {
      ...baseOption,
      xAxis: { type: 'value', name: 'batch', min: 0, max: last },
      yAxis: { type: 'value', name: 'ms', scale: true },
      series,
    },
  };
};

/** Per-batch phase times, stacked so each bar is the batch's wall time. @internal */
export const phaseBreakdownChart = (report: BenchmarkTrainingReport): ChartSpec => ({
  id: 'phases',
  title: 'Phase breakdown per batch',
  caption: `Steady-state share: ${PHASES.map((p) => `${PHASE_LABELS[p]} ${percent(report.training_metrics.phase_share[p])}`).join(', ')}.`,
  height: 360,
  option: {
    ...baseOption,
    color: [...PALETTE.phases],
    dataZoom: report.batches.length > 200 ? [{ type: 'inside' }, { type: 'slider', height: 18, bottom: 4 }] : [],
    xAxis: { type: 'category', name: 'batch', data: report.batches.map((b) => String(b.index)) },
    yAxis: { type: 'value', name: 'ms' },
    series: PHASES.map((p) => ({
      name: PHASE_LABELS[p],
      type: 'bar',
      stack: 'wall',
      barCategoryGap: '10%',
      large: report.batches.length > 1000,
      data: report.batches.map((b) => round(b.phases[p], 3)),
    })),
  },
});

const rollingMean = (values: readonly number[], window: number): number[] =>
  values.map((_, i) => {
    const from = Math.max(0, i - window + 1);
    const slice = values.slice(from, i + 1);
    return slice.reduce((s, v) => s + v, 0) / slice.length;
  });

/** Steady-state throughput per batch, its rolling mean, and the 95 % interval of the mean as a band. @internal */
export const throughputChart = (report: BenchmarkTrainingReport): ChartSpec => {
  const m = report.training_metrics;
  const steady = report.batches.filter((b) => kindOf(b, m.steady_state_start) === 'steady' && b.wallMs > 0);
  const rate = steady.map((b) => (b.samples * 1000) / b.wallMs);
  const smooth = rollingMean(rate, 10);
  const [lo, hi] = m.samples_per_second_ci95;
  const interval = formatRateInterval(m.samples_per_second_ci95, m.samples_per_second_ci95_note);
  return {
    id: 'throughput',
    title: 'Throughput (steady state)',
    caption: `${round(m.samples_per_second, 1)} samples/s, 95 % interval ${interval}${hi === null ? '' : ' (shaded band)'}.`,
    option: {
      ...baseOption,
      xAxis: { type: 'value', name: 'batch', scale: true },
      yAxis: { type: 'value', name: 'samples/s', scale: true },
      series: [
        {
          name: 'per batch',
          type: 'scatter',
          symbolSize: 6,
          itemStyle: { color: PALETTE.warmup },
          data: steady.map((b, i) => [b.index, round(rate[i]!, 2)]),
        },
        {
          name: 'rolling mean (10)',
          type: 'line',
          showSymbol: false,
          itemStyle: { color: PALETTE.steady },
          data: steady.map((b, i) => [b.index, round(smooth[i]!, 2)]),
          // an interval open above has no band to draw: the caption says why
          ...(hi === null
            ? {}
            : {
                markArea: {
                  silent: true,
                  itemStyle: { color: PALETTE.band },
                  data: [[{ yAxis: round(lo, 3), name: '95 % CI' }, { yAxis: round(hi, 3) }]],
                },
              }),
          markLine: {
            symbol: 'none',
            data: [{ yAxis: round(m.samples_per_second, 2) }],
            label: { formatter: 'mean {c}', position: 'insideEndTop' },
          },
        },
      ],
    },
  };
};
