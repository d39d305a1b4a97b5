/** "42 s", "3:07", "1:02:03"; "?" when unknown. @internal */
export const formatDuration = (seconds: number): string => {
  if (!Number.isFinite(seconds) || seconds < 0) return '?';
  const s = Math.round(seconds);
  if (s < 60) return `${s} s`;
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const pad = (n: number): string => String(n).padStart(2, '0');
  return h > 0 ? `${h}:${pad(m)}:${pad(s % 60)}` : `${m}:${pad(s % 60)}`;
};

const BYTE_UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB'] as const;

/** A count in its unit; bytes scale to KiB…TiB. @internal */
export const formatQuantity = (value: number, unit: string): string => {
  if (unit !== 'bytes') return `${Number.isInteger(value) ? value : value.toFixed(1)} ${unit}`;
  let v = value;
  let i = 0;
  while (v >= 1024 && i < BYTE_UNITS.length - 1) {
    v /= 1024;
    i += 1;
  }
  return `${i === 0 ? v : v.toFixed(1)} ${BYTE_UNITS[i]}`;
};

/** Units per second, three significant figures. @internal */
export const formatRate = (perSecond: number, unit: string): string => {
  if (!Number.isFinite(perSecond)) return `? ${unit === 'bytes' ? 'B' : unit}/s`;
  if (unit === 'bytes') return `${formatQuantity(perSecond, 'bytes')}/s`;
  return `${perSecond >= 100 ? Math.round(perSecond) : Number(perSecond.toPrecision(3))} ${unit}/s`;
};

/** A text bar of `width` cells for a fraction in [0, 1]. @internal */
export const renderBar = (fraction: number, width: number): string => {
  const filled = Math.round(Math.min(1, Math.max(0, fraction)) * width);
  return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}]`;
};
