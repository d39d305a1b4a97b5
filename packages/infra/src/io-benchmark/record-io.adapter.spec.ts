import { BenchmarkIoUseCase, SILENT_PROGRESS } from '@maou/bench-use-cases';
import { SystemClockAdapter } from '../clock/system-clock.adapter';
import { RecordIoAdapter } from './record-io.adapter';

describe('RecordIoAdapter with the benchmark-io use case', () => {
  it('writes and reads the same Stage 3 rows in every format', async () => {
    const input = { stage: 3, rows: 64, repeats: 1, seed: 1, formats: null } as const;
    const r = await new BenchmarkIoUseCase(new RecordIoAdapter(), new SystemClockAdapter(), SILENT_PROGRESS).execute(
      input,
    );
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.formats.map((f) => `${f.format}:${f.compression}`)).toEqual([
      'feather:lz4',
      'feather:none',
      'arrow-stream:lz4',
      'npy:none',
    ]);
    const [lz4, none, , npy] = r.value.formats;
    expect(lz4!.fileBytes).toBeLessThan(none!.fileBytes / 4);
    expect(npy!.bytesPerRow).toBeGreaterThan(3097);
    for (const f of r.value.formats) expect(f.readRowsPerSecond).toBeGreaterThan(0);
  });
});
