/** Rounds for display; keeps 3 significant figures for small values. @internal */
export const round = (value: number, digits = 2): number => {
  if (!Number.isFinite(value)) return value;
  const abs = Math.abs(value);
  const d = abs !== 0 && abs < 1 ? Math.max(digits, 2 - Math.floor(Math.log10(abs))) : digits;
  return Number(value.toFixed(Math.min(d, 12)));
};

/** A duration unit chosen so the figures stay readable. @internal */
export interface TimeUnit {
  readonly name: 'ms' | 's' | 'min' | 'h';
  readonly ms: number;
}

/** Picks the largest unit in which `ms` is at least 2. @internal */
export const timeUnitFor = (ms: number): TimeUnit => {
  if (ms >= 2 * 3_600_000) return { name: 'h', ms: 3_600_000 };
  if (ms >= 2 * 60_000) return { name: 'min', ms: 60_000 };
  if (ms >= 2_000) return { name: 's', ms: 1_000 };
  return { name: 'ms', ms: 1 };
};

/** Human form of a duration, e.g. "3.2 min". @internal */
export const formatMs = (ms: number): string => {
  if (!Number.isFinite(ms)) return 'n/a';
  const unit = timeUnitFor(ms);
  return `${round(ms / unit.ms)} ${unit.name}`;
};

/** Human form of an interval, e.g. "[1.2, 1.4] min". @internal */
export const formatInterval = (lo: number, hi: number): string => {
  const unit = timeUnitFor(Math.max(Math.abs(lo), Math.abs(hi)));
  return `[${round(lo / unit.ms)}, ${round(hi / unit.ms)}] ${unit.name}`;
};

/** A share as a percentage with one decimal, the same everywhere (round() would keep 0.172 beside 16.5). @internal */
export const percent = (share: number): string => `${(share * 100).toFixed(1)} %`;

/** Bytes as MiB for plotting. @internal */
export const mib = (bytes: number): number => round(bytes / 1_048_576, 1);

/** Colours used across reports so a phase or a run keeps its colour everywhere. @internal */
export const PALETTE = {
  warmup: '#7f8898',
  settling: '#f0b35a',
  steady: '#3b6fd8',
  band: 'rgba(59, 111, 216, 0.15)',
  a: '#3b6fd8',
  b: '#e0663d',
  phases: ['#7f8ea3', '#9b6fd8', '#3b6fd8', '#2bb0a6', '#e0663d', '#e8b33a', '#c9ced8'],
} as const;

/** Shared grid and tooltip defaults. @internal */
export const baseOption = {
  grid: { left: 64, right: 28, top: 48, bottom: 48 },
  tooltip: { trigger: 'axis', confine: true },
  legend: { top: 8, type: 'scroll' },
} as const;
