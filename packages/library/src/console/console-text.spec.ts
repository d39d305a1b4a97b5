import { alignedTable, formatNumber } from './console-text';
import { renderIoTable } from './io-summary';

describe('console text', () => {
  it('formats numbers with en-US grouping and fixed decimals, and "-" where there is no finite number', () => {
    expect(formatNumber(1234567.891)).toBe('1,234,568');
    expect(formatNumber(0.04, 1)).toBe('0.0');
    expect(formatNumber(12345.66, 2)).toBe('12,345.66');
    expect([null, undefined, NaN, Infinity].map((v) => formatNumber(v))).toEqual(['-', '-', '-', '-']);
  });

  it('aligns each column to its widest cell: names left, numbers right, two spaces apart', () => {
    expect(
      alignedTable(
        ['name', 'n'],
        [
          ['a', '1,000'],
          ['long name', '2'],
        ],
        1,
      ),
    ).toEqual(['name           n', 'a          1,000', 'long name      2']);
    expect(
      alignedTable(
        ['batch', 'fed'],
        [
          ['128', 'no'],
          ['256', 'yes'],
        ],
      ),
    ).toEqual(['batch  fed', '  128   no', '  256  yes']);
  });

  it('renders the benchmark-io table as the command printed it before the renderers were merged', () => {
    const row = {
      writeSeconds: 1,
      readSeconds: 0.01,
      writeRowsPerSecond: 123456.7,
      writeMegabytesPerSecond: 98.76,
      readRowsPerSecond: 9876543.2,
    };
    const text = renderIoTable({
      stage: 3,
      rows: 123456,
      repeats: 3,
      payloadBytes: 98765432,
      formats: [
        {
          format: 'feather',
          compression: 'lz4',
          fileBytes: 1234567,
          bytesPerRow: 10.5,
          ...row,
          readMegabytesPerSecond: 1234.56,
        },
        {
          format: 'npy',
          compression: 'none',
          fileBytes: 77,
          bytesPerRow: 1,
          writeSeconds: 1,
          readSeconds: 0.01,
          writeRowsPerSecond: 5,
          writeMegabytesPerSecond: 0.04,
          readRowsPerSecond: 1e7,
          readMegabytesPerSecond: 12345.6,
        },
      ],
    });
    expect(text.split('\n')).toEqual([
      'I/O benchmark: Stage 3, 123,456 rows (98.8 MB in memory), median of 3',
      'format   compression  file MB  B/row  write rows/s  write MB/s  read rows/s  read MB/s',
      'feather  lz4             1.23     11       123,457        98.8    9,876,543    1,234.6',
      'npy      none            0.00      1             5         0.0   10,000,000   12,345.6',
      'MB/s = in-memory payload megabytes (10^6 B) per second; ZSTD is read-only (no JS encoder).',
      '',
    ]);
  });
});
