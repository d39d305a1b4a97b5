import 'reflect-metadata';
import { FakeClock } from '../../testing';
import { SILENT_PROGRESS } from '../../ports/progress.port';
import type { ValidBenchmarkIoInput } from './benchmark-io.input';
import { BenchmarkIoUseCase } from './benchmark-io.use-case';
import type { IoRecords, RecordFileFormat, RecordIoPort } from './record-io.port';

const records: IoRecords = {
  columns: {
    stage: 1,
    rows: 4,
    boardIdPositions: new Uint8Array(324),
    piecesInHand: new Uint8Array(56),
    reachableSquares: new Uint8Array(324),
  },
  ids: new BigUint64Array(4),
  payloadBytes: 4_000_000,
};

// An in-memory format whose write takes 2 s and read 0.5 s on the fake clock.
const memoryFormat = (clock: FakeClock, store: Map<string, number>, readRows?: number): RecordFileFormat => ({
  name: 'mem',
  compression: 'none',
  suffix: '.bin',
  write: async (r, path) => {
    clock.advance(2000);
    store.set(path, r.columns.rows);
    return 400;
  },
  read: async (path) => {
    clock.advance(500);
    return readRows ?? store.get(path) ?? 0;
  },
});

const port = (format: RecordFileFormat): RecordIoPort => ({
  formats: () => [format],
  sampleRecords: async () => records,
  scratchDir: async () => '/scratch',
  removeDir: async () => undefined,
});

describe('BenchmarkIoUseCase', () => {
  const input: { value: ValidBenchmarkIoInput } = { value: { stage: 1, rows: 4, repeats: 3, seed: 0, formats: null } };

  it('reports rows/s and payload MB/s from the timed writes and reads', async () => {
    const clock = new FakeClock();
    const r = await new BenchmarkIoUseCase(port(memoryFormat(clock, new Map())), clock, SILENT_PROGRESS).execute(
      input.value,
    );
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.formats[0]).toMatchObject({
      writeRowsPerSecond: 2,
      readRowsPerSecond: 8,
      writeMegabytesPerSecond: 2,
      readMegabytesPerSecond: 8,
      bytesPerRow: 100,
    });
  });

  it('fails on a row-count mismatch and on an unknown format name', async () => {
    const clock = new FakeClock();
    const bad = await new BenchmarkIoUseCase(port(memoryFormat(clock, new Map(), 3)), clock, SILENT_PROGRESS).execute(
      input.value,
    );
    expect(bad.ok ? '' : bad.error.kind).toBe('row-mismatch');
    const named: { value: ValidBenchmarkIoInput } = {
      value: { stage: 1, rows: 4, repeats: 1, seed: 0, formats: ['parquet:zstd'] },
    };
    const unknown = await new BenchmarkIoUseCase(port(memoryFormat(clock, new Map())), clock, SILENT_PROGRESS).execute(
      named.value,
    );
    expect(unknown.ok ? '' : unknown.error.message).toMatch(/--formats: unknown parquet:zstd \(known: mem:none\)/);
  });
});
