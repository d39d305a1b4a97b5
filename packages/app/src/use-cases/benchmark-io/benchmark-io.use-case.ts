import { inject, injectable } from 'tsyringe';
import { err, ok, type Result, type Stage } from '@maou/bench-domain';
import type { ClockPort } from '../../ports/clock.port';
import type { ProgressPort } from '../../ports/progress.port';
import { TOKENS } from '../../ports/tokens';
import type { BenchmarkIoError } from './benchmark-io.errors';
import type { ValidBenchmarkIoInput } from './benchmark-io.input';
import type { IoRecords, RecordFileFormat, RecordIoPort } from './record-io.port';

/** Throughput of one format, medians over the repeats. @public */
export interface IoFormatResult {
  readonly format: string;
  readonly compression: string;
  readonly fileBytes: number;
  readonly bytesPerRow: number;
  readonly writeSeconds: number;
  readonly readSeconds: number;
  readonly writeRowsPerSecond: number;
  readonly readRowsPerSecond: number;
  /** payload (columnar in-memory) megabytes per second, 1 MB = 10^6 bytes */
  readonly writeMegabytesPerSecond: number;
  readonly readMegabytesPerSecond: number;
}

/** @public */
export interface BenchmarkIoResult {
  readonly stage: Stage;
  readonly rows: number;
  readonly repeats: number;
  readonly payloadBytes: number;
  readonly formats: readonly IoFormatResult[];
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] ?? 0) : ((s[m - 1] ?? 0) + (s[m] ?? 0)) / 2;
};

/** Writes and reads the same rows in every format; the TypeScript counterpart of maou's Polars I/O benchmark. @public */
@injectable()
export class BenchmarkIoUseCase {
  constructor(
    @inject(TOKENS.RecordIo) private readonly io: RecordIoPort,
    @inject(TOKENS.Clock) private readonly clock: ClockPort,
    @inject(TOKENS.Progress) private readonly progress: ProgressPort,
  ) {}

  async execute(input: ValidBenchmarkIoInput): Promise<Result<BenchmarkIoResult, BenchmarkIoError>> {
    const all = this.io.formats();
    const names = all.map((f) => `${f.name}:${f.compression}`);
    const unknown = (input.formats ?? []).filter((n) => !names.includes(n));
    if (unknown.length)
      return err({
        kind: 'unknown-format',
        message: `--formats: unknown ${unknown.join(', ')} (known: ${names.join(', ')})`,
      });
    const formats = input.formats ? all.filter((f) => input.formats?.includes(`${f.name}:${f.compression}`)) : all;
    const task = this.progress.start({ label: 'benchmark-io: sample rows', total: input.rows, unit: 'positions' });
    const records = await this.io.sampleRecords(input.stage, input.rows, input.seed, (done) => task.update(done));
    task.finish();
    let dir: string;
    try {
      dir = await this.io.scratchDir();
    } catch (e) {
      return err({ kind: 'io-failed', message: e instanceof Error ? e.message : String(e) });
    }
    try {
      const results: IoFormatResult[] = [];
      for (const format of formats) {
        const r = await this.measure(format, records, dir, input);
        if (!r.ok) return r;
        results.push(r.value);
      }
      return ok({
        stage: input.stage,
        rows: records.columns.rows,
        repeats: input.repeats,
        payloadBytes: records.payloadBytes,
        formats: results,
      });
    } finally {
      await this.io.removeDir(dir);
    }
  }

  private async measure(
    format: RecordFileFormat,
    records: IoRecords,
    dir: string,
    input: ValidBenchmarkIoInput,
  ): Promise<Result<IoFormatResult, BenchmarkIoError>> {
    const writes: number[] = [];
    const reads: number[] = [];
    let fileBytes = 0;
    const rows = records.columns.rows;
    for (let r = 0; r < input.repeats; r++) {
      const path = `${dir}/${format.name}-${format.compression}-${r}${format.suffix}`;
      try {
        let t = this.clock.now();
        fileBytes = await format.write(records, path);
        writes.push((this.clock.now() - t) / 1000);
        t = this.clock.now();
        const got = await format.read(path, input.stage);
        reads.push((this.clock.now() - t) / 1000);
        if (got !== rows) return err({ kind: 'row-mismatch', message: `${path}: read ${got} rows, wrote ${rows}` });
      } catch (e) {
        return err({ kind: 'io-failed', message: e instanceof Error ? e.message : String(e) });
      }
    }
    const w = Math.max(median(writes), 1e-9);
    const rd = Math.max(median(reads), 1e-9);
    return ok({
      format: format.name,
      compression: format.compression,
      fileBytes,
      bytesPerRow: fileBytes / rows,
      writeSeconds: w,
      readSeconds: rd,
      writeRowsPerSecond: rows / w,
      readRowsPerSecond: rows / rd,
      writeMegabytesPerSecond: records.payloadBytes / w / 1e6,
      readMegabytesPerSecond: records.payloadBytes / rd / 1e6,
    });
  }
}
