import type { FileOpen } from '../data/host-batch';
import { mulberry32 } from '../random/mulberry32';
import { boundaryStall } from './file-boundaries';
import { measureFall } from './record-run';
import { assessRun, type RunSeries } from './run-assessment';

// A streaming epoch shaped as session 12's row 24 ran it: files of 209 batches of ~128 ms (±4 %); each read takes
// ~1,000 ms and the consumer has 3 batches ready when it starts, so it waits the rest at each boundary.
const FILE = 209;
const READ = 1000;
const LEAD = 3;
const stream = (seed: number, files: number): { series: RunSeries; truth: number } => {
  const rnd = mulberry32(seed);
  const n = files * FILE;
  const wallMs = Array.from({ length: n }, (_, i) => {
    const base = 128 * (1 + 0.08 * (rnd() - 0.5));
    if (i === 0) return base + READ;
    return i % FILE === 0 ? base + READ - LEAD * 128 : base;
  });
  const opens: (FileOpen | undefined)[] = wallMs.map((_, i) =>
    i % FILE === 0 ? { files: 1, readMs: READ } : undefined,
  );
  return {
    series: { wallMs, cpu: [], disturbed: wallMs.map(() => false), opens },
    truth: wallMs.reduce((s, x) => s + x, 0),
  };
};
const look = (s: RunSeries, n: number): RunSeries => ({
  wallMs: s.wallMs.slice(0, n),
  cpu: [],
  disturbed: s.disturbed.slice(0, n),
  opens: s.opens!.slice(0, n),
});
const options = (files: number) => ({
  minWarmup: 10,
  batchesPerEpoch: files * FILE,
  residualFall: 0,
  runToRun: 0.035,
  files: { readsPerEpoch: files, leadBatches: LEAD, besideStep: true },
});

describe('file boundaries in a streaming epoch', () => {
  it('given a look shorter than a file, then each boundary ahead counts the read less the batches ready', () => {
    const { series, truth } = stream(1, 10);
    const a = assessRun(look(series, 100), options(10));
    expect(a.boundaries).toMatchObject({ seen: 1, ahead: 9, source: 'read-time', observed: 0, readMs: READ });
    expect(a.boundaries!.stallMs).toBeCloseTo(READ - LEAD * a.meanMs, 6);
    expect(Math.abs(a.predictedMs / truth - 1)).toBeLessThan(0.01);
    // without the loader's plan the boundaries are invisible: the point runs low by their share
    const blind = assessRun(look(series, 100), { ...options(10), files: null });
    expect(blind.boundaries).toBeNull();
    expect(blind.predictedMs / truth - 1).toBeLessThan(-0.015);
    // the main thread's reads stop the step: nothing is ready, the whole read is waited for
    const main = assessRun(look(series, 100), {
      ...options(10),
      files: { readsPerEpoch: 10, leadBatches: 0, besideStep: false },
    });
    expect(main.boundaries!.stallMs).toBe(READ);
  });

  it('given a look that crossed boundaries, then their cost over the steady mean counts and they stay out of the mean', () => {
    const { series, truth } = stream(2, 10);
    const a = assessRun(look(series, 2 * FILE + 20), options(10));
    expect(a.boundaries).toMatchObject({ seen: 3, ahead: 7, source: 'observed', observed: 2 });
    // each cost 1,000 − 3 × 128 ms over a batch of ±4 %
    expect(Math.abs(a.boundaries!.stallMs - (READ - LEAD * 128))).toBeLessThan(10);
    expect(a.meanMs).toBeLessThan(133);
    expect(Math.abs(a.predictedMs / truth - 1)).toBeLessThan(0.01);
    expect(a.intervalMs[0]).toBeLessThanOrEqual(truth);
    expect(a.intervalMs[1]).toBeGreaterThanOrEqual(truth);
  });

  it('given a loader that reads faster than the consumer drains what it holds, then no boundary costs anything', () => {
    const wallMs = Array.from({ length: 60 }, () => 100);
    const opens = wallMs.map((_, i) => (i === 0 ? { files: 1, readMs: 150 } : undefined));
    const b = boundaryStall({ wallMs, opens }, 10, 100, {
      readsPerEpoch: 8,
      leadBatches: 2,
      besideStep: true,
    });
    expect(b).toMatchObject({ ahead: 7, stallMs: 0, source: 'read-time' });
  });

  it('given a finished streaming run, then the fall it records leaves the boundaries out', () => {
    const { series } = stream(3, 10);
    const fall = measureFall(series, 10).get(100)!;
    // a flat epoch: no fall; counted with the boundaries the rest would look ~2.5 % slower
    expect(Math.abs(fall)).toBeLessThan(0.01);
    const blind = measureFall({ ...series, opens: undefined }, 10).get(100)!;
    expect(blind).toBeLessThan(-0.015);
  });
});
