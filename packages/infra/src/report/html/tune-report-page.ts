import {
  formatGain,
  formatGainInterval,
  TUNE_CHANGE_COLUMNS,
  tuneChangeCells,
  type TuneReport,
  type TuneSide,
} from '@maou/bench-domain';
import { PALETTE, formatInterval, formatMs, percent, round, timeUnitFor } from './chart-format';
import type { ChartSpec, ReportPage, TableSpec } from './report-page';

const epoch = (s: TuneSide): string =>
  s.epoch ? `${formatMs(s.epoch.predicted_ms)} ${formatInterval(...s.epoch.predicted_ms_ci95)}` : '–';

const verified = (r: TuneReport): string => {
  const v = r.final.verification;
  if (v)
    return `${formatGain(v.gain)} (95 % interval ${formatGainInterval(v.interval)}, the machine's wander ±${percent(v.wander_band)}): ${v.significant ? 'faster' : 'not measurably faster'}`;
  return r.final.changes.length ? 'measurement changes only' : 'no measurable gain: the configuration stays';
};

const changesTable = (r: TuneReport): TableSpec => ({
  id: 'tune-changes',
  title: 'Changes against your configuration, in the same run',
  columns: [...TUNE_CHANGE_COLUMNS, 'why tried', 'note'],
  rows: r.changes.map((c) => [...tuneChangeCells(c), c.why, [c.alters, c.reason].filter(Boolean).join('; ')]),
  emptyText: 'No change to try: the configuration already sets every setting the tune knows.',
});

const skippedTable = (r: TuneReport): TableSpec => ({
  id: 'tune-skipped',
  title: 'Advice the tune did not try',
  columns: ['change', 'why'],
  rows: r.skipped.map((s) => [s.value === null ? s.flag : `${s.flag} ${s.value}`, s.why]),
  emptyText: 'Every advised change with a value was tried.',
});

// In per cent, on steps of 10 % or more with 0 (no change) on the axis; an open upper end is drawn to the axis' edge.
const gainChart = (r: TuneReport): ChartSpec | null => {
  const measured = r.changes.filter((c) => c.gain !== null && c.interval !== null);
  if (!measured.length) return null;
  const pc = (x: number): number => round(x * 100, 2);
  const ends = measured.flatMap((c) => [c.gain!, c.interval![0], c.interval![1] ?? c.gain!].map(pc));
  const [min, max] = [Math.min(0, ...ends), Math.max(0, ...ends)];
  const step = 10 * Math.max(1, Math.ceil((max - min) / 100));
  const [lo, hi] = [Math.floor(min / step - 0.25) * step, Math.ceil(max / step + 0.25) * step];
  return {
    id: 'tune-gains',
    title: 'Gain of each change over your configuration',
    caption:
      'Dot: samples/s against the baseline in the same run, minus 1; bar: its 95 % interval, widened by the wander band (an open interval runs to the edge). A change counts when the whole bar is right of 0.',
    height: 80 + 40 * measured.length,
    option: {
      tooltip: { trigger: 'item', confine: true },
      grid: { left: 220, right: 40, top: 30, bottom: 40 },
      yAxis: { type: 'category', data: measured.map((c) => `${c.flag} ${c.value}`), inverse: true },
      xAxis: { type: 'value', name: 'gain %', min: lo, max: hi, interval: step },
      series: [
        {
          name: '95 % interval',
          type: 'boxplot',
          itemStyle: { color: PALETTE.band, borderColor: PALETTE.steady },
          data: measured.map((c) => {
            const [from, to] = [pc(c.interval![0]), c.interval![1] === null ? hi : pc(c.interval![1])];
            return [from, from, pc(c.gain!), to, to];
          }),
          markLine: { symbol: 'none', data: [{ xAxis: 0, name: 'no change' }], label: { formatter: 'no change' } },
        },
        {
          name: 'gain %',
          type: 'scatter',
          symbolSize: 10,
          itemStyle: { color: PALETTE.b },
          data: measured.map((c, i) => [pc(c.gain!), i]),
        },
      ],
    },
  };
};

const epochChart = (r: TuneReport): ChartSpec | null => {
  const sides = [
    ['before', r.baseline],
    ['after', r.final],
  ] as const;
  if (sides.some(([, s]) => !s.epoch)) return null;
  const unit = timeUnitFor(Math.max(...sides.map(([, s]) => s.epoch!.predicted_ms_ci95[1])));
  const inUnit = (ms: number): number => round(ms / unit.ms, 3);
  return {
    id: 'tune-epoch',
    title: 'Predicted epoch before and after',
    caption: `Each side's median leg's epoch prediction (${unit.name}) with its 95 % interval.`,
    height: 200,
    option: {
      tooltip: { trigger: 'item', confine: true },
      grid: { left: 90, right: 40, top: 30, bottom: 40 },
      yAxis: { type: 'category', data: sides.map(([name]) => name) },
      xAxis: { type: 'value', name: unit.name, scale: true },
      series: [
        {
          name: '95 % interval',
          type: 'boxplot',
          itemStyle: { color: PALETTE.band, borderColor: PALETTE.steady },
          data: sides.map(([, s]) => {
            const [lo, hi] = s.epoch!.predicted_ms_ci95;
            return [lo, lo, s.epoch!.predicted_ms, hi, hi].map(inUnit);
          }),
        },
        {
          name: 'prediction',
          type: 'scatter',
          symbolSize: 10,
          itemStyle: { color: PALETTE.a },
          data: sides.map(([, s], i) => [inUnit(s.epoch!.predicted_ms), i]),
        },
      ],
    },
  };
};

/** The page of a `benchmark-tune` report: the changes with their gains and verdicts, before and after, the command. @public */
export const tuneReportPage = (r: TuneReport): ReportPage => ({
  title: `maou benchmark-tune: ${r.final.changes.length ? r.final.changes.map((c) => `${c.flag} ${c.value}`).join(' ') : 'no change'}`,
  subtitle: `Tune on ${r.environment.backend}, ${r.environment.threads} thread(s), ${r.environment.cpus} usable core(s), at ${r.created_at}: ${round(r.elapsed_s, 0)} s of a ${round(r.budget_s, 0)} s budget. ${r.notes.join(' ')}`,
  facts: [
    ['verified', verified(r)],
    ['baseline', `${round(r.baseline.samples_per_second, 1)} samples/s over ${r.baseline.legs} legs`],
    ['final', `${round(r.final.samples_per_second, 1)} samples/s over ${r.final.legs} legs`],
    ['predicted epoch before', epoch(r.baseline)],
    ['predicted epoch after', epoch(r.final)],
  ],
  charts: [gainChart(r), epochChart(r)].filter((c): c is ChartSpec => c !== null),
  tables: [
    {
      id: 'tune-command',
      title: 'The final configuration, to paste',
      columns: ['command'],
      rows: [[r.command]],
      emptyText: '',
    },
    changesTable(r),
    skippedTable(r),
  ],
  payload: r,
});
