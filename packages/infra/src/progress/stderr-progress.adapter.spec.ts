import { FakeClock } from '@maou/bench-use-cases/testing';
import { formatDuration, formatQuantity, formatRate, renderBar } from './progress-format';
import { StderrProgressAdapter, type ProgressStream } from './stderr-progress.adapter';

const collect = (isTTY: boolean): ProgressStream & { chunks: string[] } => {
  const chunks: string[] = [];
  return { chunks, isTTY, columns: 100, write: (c: string) => chunks.push(c) > 0 };
};

describe('StderrProgressAdapter', () => {
  it('given stderr is not a terminal, then throttled plain lines with rate and ETA, and a closing line', () => {
    const clock = new FakeClock();
    const stream = collect(false);
    const task = new StderrProgressAdapter({ clock, stream, lineIntervalMs: 1000 }).start({
      label: 'benchmark batches',
      total: 100,
      unit: 'batches',
    });
    for (let i = 0; i < 50; i += 1) {
      clock.advance(100); // 10 batches/s
      task.advance();
    }
    task.finish();
    expect(stream.chunks[0]).toBe('benchmark batches: started (100 batches)\n');
    // 50 updates over 5 s at one line per second: 5 progress lines, not 50
    const lines = stream.chunks.slice(1, -1);
    expect(lines).toHaveLength(5);
    expect(lines.at(-1)).toBe('benchmark batches: 50/100 batches (50.0 %), 10 batches/s, ETA 5 s\n');
    expect(stream.chunks.every((c) => !c.includes('\r') && !c.includes('\x1b'))).toBe(true);
    expect(stream.chunks.at(-1)).toBe('benchmark batches: done 50/100 batches in 5 s (10 batches/s)\n');
  });

  it('given a terminal, then one bar redrawn in place and a newline only at the end', () => {
    const clock = new FakeClock();
    const stream = collect(true);
    const task = new StderrProgressAdapter({ clock, stream }).start({
      label: 'download',
      total: 4 * 1024 * 1024,
      unit: 'bytes',
    });
    clock.advance(1000);
    task.update(1024 * 1024);
    expect(stream.chunks[0]).toMatch(
      /^\rdownload \[#+-+\] 1\.0 MiB \/ 4\.0 MiB \(25\.0 %\) 1\.0 MiB\/s, ETA 3 s\x1b\[K$/,
    );
    task.finish('failed');
    expect(stream.chunks.at(-1)).toBe('\rdownload: stopped at 1.0 MiB / 4.0 MiB in 1 s (1.0 MiB/s)\x1b[K\n');
    task.advance();
    expect(stream.chunks).toHaveLength(2);
  });

  it('given a terminal of unknown or narrow width, then the line never exceeds it and drops the bar first', () => {
    const clock = new FakeClock();
    const unknown = { ...collect(true), columns: 0 };
    const narrow = { ...collect(true), columns: 50 };
    for (const stream of [unknown, narrow]) {
      const task = new StderrProgressAdapter({ clock, stream }).start({
        label: 'benchmark batches',
        total: 12,
        unit: 'batches',
      });
      clock.advance(1000);
      task.advance(6);
    }
    expect(unknown.chunks[0]).toBe(
      `\rbenchmark batches [${'#'.repeat(8)}${'-'.repeat(8)}] 6/12 batches (50.0 %) 6 batches/s, ETA 1 s\x1b[K`,
    );
    expect(narrow.chunks[0]).toBe('\rbenchmark batches 6/12 batches (50.0 %) 6 batches\x1b[K');
  });

  it('given an unknown total, then counts and rate without percentage or ETA', () => {
    const clock = new FakeClock();
    const stream = collect(false);
    const task = new StderrProgressAdapter({ clock, stream }).start({
      label: 'generate',
      total: null,
      unit: 'records',
    });
    clock.advance(2000);
    task.update(500);
    expect(stream.chunks).toEqual(['generate: started\n', 'generate: 500 records, 250 records/s\n']);
  });

  it('given progress disabled, then nothing is written', () => {
    const stream = collect(false);
    const task = new StderrProgressAdapter({ clock: new FakeClock(), stream, enabled: false }).start({
      label: 'x',
      total: 1,
      unit: 'files',
    });
    task.advance();
    task.finish();
    expect(stream.chunks).toEqual([]);
  });
});

describe('progress formatting', () => {
  it('formats durations, quantities, rates and bars', () => {
    expect([formatDuration(42.4), formatDuration(187), formatDuration(3723), formatDuration(Number.NaN)]).toEqual([
      '42 s',
      '3:07',
      '1:02:03',
      '?',
    ]);
    expect([formatQuantity(1536, 'bytes'), formatQuantity(3, 'files')]).toEqual(['1.5 KiB', '3 files']);
    expect([formatRate(12.345, 'batches'), formatRate(2048, 'bytes')]).toEqual(['12.3 batches/s', '2.0 KiB/s']);
    expect(renderBar(0.5, 10)).toBe('[#####-----]');
  });
});
