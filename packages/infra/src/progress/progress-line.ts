import type { ProgressStart } from '@maou/bench-use-cases';
import { formatDuration, formatQuantity, formatRate, renderBar } from './progress-format';

/** What one progress line shows. @internal */
export interface ProgressSnapshot {
  readonly task: ProgressStart;
  readonly done: number;
  readonly elapsedMs: number;
  /** current units per second (NaN until known) */
  readonly rate: number;
}

const count = (s: ProgressSnapshot): string =>
  s.task.total === null
    ? formatQuantity(s.done, s.task.unit)
    : s.task.unit === 'bytes'
      ? `${formatQuantity(s.done, 'bytes')} / ${formatQuantity(s.task.total, 'bytes')}`
      : `${s.done}/${s.task.total} ${s.task.unit}`;

const eta = (s: ProgressSnapshot): string =>
  s.task.total === null ? '' : `, ETA ${formatDuration((s.task.total - s.done) / s.rate)}`;

const percent = (s: ProgressSnapshot): string =>
  s.task.total === null || s.task.total <= 0 ? '' : ` (${((100 * s.done) / s.task.total).toFixed(1)} %)`;

/** A plain line for logs and pipes: "batches: 450/1000 batches (45.0 %), 12.3 batches/s, ETA 45 s". @internal */
export const plainLine = (s: ProgressSnapshot): string =>
  `${s.task.label}: ${count(s)}${percent(s)}, ${formatRate(s.rate, s.task.unit)}${eta(s)}`;

/** A terminal bar line fitted to `columns`. @internal */
export const barLine = (s: ProgressSnapshot, columns: number): string => {
  const fraction = s.task.total ? s.done / s.task.total : 0;
  const tail = ` ${count(s)}${percent(s)} ${formatRate(s.rate, s.task.unit)}${eta(s)}`;
  const room = columns - 1 - s.task.label.length - tail.length - 3;
  // Narrow terminals drop the bar first, then cut the tail, never wrap (a wrapped line cannot be redrawn).
  const bar = s.task.total === null || room < 10 ? '' : ` ${renderBar(fraction, Math.min(40, room))}`;
  return `${s.task.label}${bar}${tail}`.slice(0, Math.max(1, columns - 1));
};

/** The closing line, with the average rate over the whole task. @internal */
export const finalLine = (s: ProgressSnapshot, outcome: 'done' | 'failed'): string => {
  const average = s.elapsedMs > 0 ? (s.done * 1000) / s.elapsedMs : Number.NaN;
  const what = outcome === 'done' ? 'done' : 'stopped at';
  return `${s.task.label}: ${what} ${count(s)} in ${formatDuration(s.elapsedMs / 1000)} (${formatRate(average, s.task.unit)})`;
};
