import { BenchmarkIoUseCase, type BenchmarkIoResult, type ValidBenchmarkIoInput } from '@maou/bench-app';
import { err, ok } from '@maou/bench-domain';
import { BENCHMARK_IO_OPTIONS, toBenchmarkIoInput, type BenchmarkIoArgs } from '@maou/bench-interface';
import type { GlobalOptions } from '../composition-root';
import { runCommand, type CommandSpec } from '../run-command';
import { utilityCommand } from './command-module';

const num = (v: number, digits = 0): string =>
  v.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

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
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: string[]): string =>
    cells.map((c, i) => (i < 2 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ');
  const title = `I/O benchmark: Stage ${r.stage}, ${num(r.rows)} rows (${num(r.payloadBytes / 1e6, 1)} MB in memory), median of ${r.repeats}`;
  return [
    title,
    line(head),
    ...rows.map(line),
    'MB/s = in-memory payload megabytes (10^6 B) per second; ZSTD is read-only (no JS encoder).',
    '',
  ].join('\n');
};

const spec: CommandSpec<BenchmarkIoArgs & GlobalOptions, ValidBenchmarkIoInput, BenchmarkIoResult> = {
  name: 'benchmark-io',
  validate: toBenchmarkIoInput,
  run: async (container, input) => {
    const result = await container.resolve(BenchmarkIoUseCase).execute(input);
    return result.ok
      ? ok(result.value)
      : err({ code: result.error.kind === 'unknown-format' ? 2 : 1, message: result.error.message });
  },
  present: (r) => ({ payload: r, text: renderIoTable(r) }),
};

/** `maou utility benchmark-io`: write/read throughput per format and compression on the same rows. */
export const benchmarkIoCommand = utilityCommand({
  command: 'benchmark-io',
  describe: 'Write and read throughput (rows/s, MB/s) of .feather (LZ4/none), Arrow stream and .npy on the same rows',
  builder: (y) => y.options(BENCHMARK_IO_OPTIONS),
  handler: (args) => runCommand(spec, args),
});
