import type { BenchmarkIoResult } from '@maou/bench-use-cases';
import { alignedTable, formatNumber as num } from './console-text';

/** The results as an aligned text table. */
export const renderIoTable = (r: BenchmarkIoResult): string => {
  const head = ['format', 'compression', 'file MB', 'B/row', 'write rows/s', 'write MB/s', 'read rows/s', 'read MB/s'];
  const rows = r.formats.map((f) => [
    f.format,
    f.compression,
    num(f.fileBytes / 1e6, 2),
    num(f.bytesPerRow, 0),
    num(f.writeRowsPerSecond),
    num(f.writeMegabytesPerSecond, 1),
    num(f.readRowsPerSecond),
    num(f.readMegabytesPerSecond, 1),
  ]);
  const title = `I/O benchmark: Stage ${r.stage}, ${num(r.rows)} rows (${num(r.payloadBytes / 1e6, 1)} MB in memory), median of ${r.repeats}`;
  return [
    title,
    ...alignedTable(head, rows, 2),
    'MB/s = in-memory payload megabytes (10^6 B) per second; ZSTD is read-only (no JS encoder).',
    '',
  ].join('\n');
};
