import type { TuneChangeResult, TuneReport, TuneSide } from '@maou/bench-domain';
import { alignedTable, formatMs, formatNumber, labelledRow } from './console-text';

const pct = (x: number | null): string =>
  x === null || !Number.isFinite(x) ? 'open' : `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)} %`;
const interval = (i: TuneChangeResult['interval']): string => (i ? `${pct(i[0])} … ${pct(i[1])}` : '-');

const epoch = (s: TuneSide): string =>
  s.epoch
    ? `${formatMs(s.epoch.predicted_ms)} (interval ${formatMs(s.epoch.predicted_ms_ci95[0])}–${formatMs(s.epoch.predicted_ms_ci95[1])})`
    : '-';

/** The human answer of a tune: each change's measured gain and verdict, the command to paste, the epoch before and after. */
export const renderTuneSummary = (r: TuneReport): string => {
  const rows = r.changes.map((c) => [
    `${c.flag} ${c.value}`,
    c.kind === 'training' ? 'alters training' : c.kind,
    c.gain === null ? '-' : pct(c.gain),
    interval(c.interval),
    `${c.legs.baseline}/${c.legs.candidate}`,
    c.verdict,
  ]);
  const v = r.final.verification;
  const lines = [
    `Tune on ${r.environment.backend}, ${r.environment.threads} thread(s), ${r.environment.cpus} usable core(s): ${r.elapsed_s.toFixed(0)} s of a ${r.budget_s.toFixed(0)} s budget`,
    '',
    ...(rows.length
      ? alignedTable(['change', 'kind', 'gain', '95 % interval', 'legs A/B', 'verdict'], rows, 2).map((l) => `  ${l}`)
      : ['  no change to try: the configuration already sets every setting the tune knows']),
    ...r.changes.filter((c) => c.alters).map((c) => `  ${c.flag} ${c.value}: ${c.alters}`),
    ...r.changes.filter((c) => c.reason).map((c) => `  ${c.flag} ${c.value} ${c.status}: ${c.reason}`),
    ...r.skipped.map((s) => `  not tried: ${s.flag}${s.value === null ? '' : ` ${s.value}`} (${s.why})`),
    '',
    labelledRow('Baseline', `${formatNumber(r.baseline.samples_per_second, 1)} samples/s over ${r.baseline.legs} legs`),
    labelledRow('Final', `${formatNumber(r.final.samples_per_second, 1)} samples/s over ${r.final.legs} legs`),
    labelledRow(
      'Verified',
      v
        ? `${pct(v.gain)} (interval ${pct(v.interval[0])} … ${pct(v.interval[1])}, beyond the machine's wander ±${(v.wander_band * 100).toFixed(1)} %: ${v.significant ? 'yes' : 'no'})`
        : r.final.changes.length
          ? 'measurement changes only'
          : 'no measurable gain: the configuration stays as it is',
    ),
    labelledRow('Predicted epoch before', epoch(r.baseline)),
    labelledRow('Predicted epoch after', epoch(r.final)),
    ...r.notes.map((n) => `  ! ${n}`),
    '',
    'Command:',
    `  ${r.command}`,
  ];
  return `${lines.join('\n')}\n`;
};
