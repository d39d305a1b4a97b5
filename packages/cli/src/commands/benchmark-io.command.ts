// The composition root first: it loads the reflect-metadata polyfill that tsyringe needs.
import { createContainer, type GlobalOptions } from '../composition-root';
import { BenchmarkIoUseCase, TOKENS, validateBenchmarkIoInput, type BenchmarkIoResult, type ClockPort, type ProgressPort } from '@maou/bench-app';
import { formatIssues } from '@maou/bench-domain';
import { RecordIoAdapter, toJson, writeJsonReport } from '@maou/bench-infra';
import type { UtilityCommand } from './command-module';
import { checkOutputFile } from '../output/output-paths';

interface Args extends GlobalOptions {
  readonly stage: number;
  readonly rows: number;
  readonly repeats: number;
  readonly seed: number;
  readonly formats?: string[];
  readonly outputJson?: string;
  readonly json?: boolean;
}

const num = (v: number, digits = 0): string => v.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** The results as an aligned text table. */
export const renderIoTable = (r: BenchmarkIoResult): string => {
  const head = ['format', 'compression', 'file MB', 'B/row', 'write rows/s', 'write MB/s', 'read rows/s', 'read MB/s'];
  const rows = r.formats.map((f) => [
    f.format, f.compression, num(f.fileBytes / 1e6, 2), num(f.bytesPerRow, 0), num(f.writeRowsPerSecond), num(f.writeMegabytesPerSecond, 1),
    num(f.readRowsPerSecond), num(f.readMegabytesPerSecond, 1),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: string[]): string => cells.map((c, i) => (i < 2 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ');
  const title = `I/O benchmark: Stage ${r.stage}, ${num(r.rows)} rows (${num(r.payloadBytes / 1e6, 1)} MB in memory), median of ${r.repeats}`;
  return [title, line(head), ...rows.map(line), 'MB/s = in-memory payload megabytes (10^6 B) per second; ZSTD is read-only (no JS encoder).', ''].join('\n');
};

const handler = async (args: Args): Promise<void> => {
  const input = validateBenchmarkIoInput(args);
  const out = checkOutputFile('--output-json', args.outputJson);
  if (!input.ok || out) {
    process.stderr.write(`maou benchmark-io:\n${formatIssues([...(input.ok ? [] : input.error), ...(out ? [out] : [])])}\n`);
    process.exitCode = 2;
    return;
  }
  const c = createContainer(args);
  const useCase = new BenchmarkIoUseCase(new RecordIoAdapter(), c.resolve<ClockPort>(TOKENS.Clock), c.resolve<ProgressPort>(TOKENS.Progress));
  const result = await useCase.execute(input.value);
  if (!result.ok) {
    process.stderr.write(`maou benchmark-io: ${result.error.message}\n`);
    process.exitCode = result.error.kind === 'unknown-format' ? 2 : 1;
    return;
  }
  if (args.outputJson) await writeJsonReport(result.value, args.outputJson);
  process.stdout.write(args.json ? toJson(result.value) : renderIoTable(result.value));
};

/** `maou utility benchmark-io`: write/read throughput per format and compression on the same rows. */
export const benchmarkIoCommand: UtilityCommand = {
  command: 'benchmark-io',
  describe: 'Write and read throughput (rows/s, MB/s) of .feather (LZ4/none), Arrow stream and .npy on the same rows',
  builder: (y) => y.options({
    stage: { type: 'number', default: 3, describe: 'record schema: 1, 2 or 3' },
    rows: { type: 'number', default: 10000, describe: 'rows (distinct positions from random games)' },
    repeats: { type: 'number', default: 3, describe: 'write/read repeats per format; medians are reported' },
    seed: { type: 'number', default: 0, describe: 'seed of the sample rows' },
    formats: { type: 'string', array: true, describe: 'only these, as name:compression (e.g. feather:lz4 npy:none)' },
    'output-json': { type: 'string', describe: 'write the results as JSON to this path' },
    json: { type: 'boolean', describe: 'print JSON instead of the table' },
  }),
  handler: (args) => handler(args as unknown as Args),
};
