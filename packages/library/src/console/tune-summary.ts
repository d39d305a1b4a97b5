import { formatGain as pct, TUNE_CHANGE_COLUMNS, tuneChangeCells, type TuneReport } from '@maou/bench-domain';
import { alignedTable, formatMs, formatNumber, labelledRow } from './console-text';

const epoch = (s: TuneReport['baseline']): string =>
  s.epoch
    ? `${formatMs(s.epoch.predicted_ms)} (interval ${formatMs(s.epoch.predicted_ms_ci95[0])}–${formatMs(s.epoch.predicted_ms_ci95[1])})`
    : '-';

/** The human answer of a tune: each change's measured gain and verdict, the command to paste, the epoch before and after. */
export const renderTuneSummary = (r: TuneReport): string => {
  const rows = r.changes.map(tuneChangeCells);
  const v = r.final.verification;
  const lines = [
    `Tune on ${r.environment.backend}, ${r.environment.threads} thread(s), ${r.environment.cpus} usable core(s): ${r.elapsed_s.toFixed(0)} s of a ${r.budget_s.toFixed(0)} s budget`,
    '',
    ...(rows.length
      ? alignedTable([...TUNE_CHANGE_COLUMNS], rows, 2).map((l) => `  ${l}`)
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
