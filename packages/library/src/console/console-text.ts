// The pieces every console renderer prints with (training, batch study, compare, dataloader, I/O), so a number, a
// duration or a column looks the same in each.

/** A count or rate in a table: en-US grouping, `digits` decimals; '-' where there is no finite number. */
export const formatNumber = (v: number | null | undefined, digits = 0): string =>
  v === null || v === undefined || !Number.isFinite(v)
    ? '-'
    : v.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** Milliseconds, as seconds from 1 s on. */
export const formatMs = (x: number): string => (x >= 1000 ? `${(x / 1000).toFixed(2)} s` : `${x.toFixed(1)} ms`);

export const formatGib = (bytes: number): string => `${(bytes / 2 ** 30).toFixed(2)} GiB`;

/** A summary line: the label in a 34-wide column, then the value. */
export const labelledRow = (label: string, value: string): string => `  ${label.padEnd(34)} ${value}`;

/**
 * A header and its rows, each column as wide as its widest cell, two spaces apart; the first `leftColumns` columns
 * (names) are left-aligned, the rest (numbers) right-aligned.
 */
export const alignedTable = (
  head: readonly string[],
  rows: readonly (readonly string[])[],
  leftColumns = 0,
): string[] => {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    cells.map((c, i) => (i < leftColumns ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ');
  return [line(head), ...rows.map(line)];
};
