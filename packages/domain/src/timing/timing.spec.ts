import { closePhases, type BatchTiming } from './phases';
import { clampWarmup, detectSteadyStart } from './steady-state';
import { computeTrainingMetrics } from './training-metrics';

const batch = (index: number, wallMs: number, dataWait = 0, samples = 8, numTensors = 100): BatchTiming => {
  const closed = closePhases(wallMs, {
    dataWait,
    hostToDevice: 1,
    forward: wallMs * 0.3,
    loss: 1,
    backward: wallMs * 0.4,
    optimizer: 2,
  });
  return {
    index,
    warmup: false,
    samples,
    startMs: index * wallMs,
    wallMs: closed.wallMs,
    phases: closed.phases,
    loss: 10 - index,
    numTensors,
  };
};

describe('closePhases', () => {
  it('adds the residual as other so the phases tile the wall time', () => {
    const c = closePhases(100, { dataWait: 10, hostToDevice: 5, forward: 30, loss: 5, backward: 40, optimizer: 5 });
    expect(c.phases.other).toBe(5);
    expect(Object.values(c.phases).reduce((a, b) => a + b, 0)).toBe(100);
  });
  it('never reports a negative other: the wall is raised to the phase sum', () => {
    const c = closePhases(90, { dataWait: 10, hostToDevice: 5, forward: 30, loss: 5, backward: 40, optimizer: 5 });
    expect(c.phases.other).toBe(0);
    expect(c.wallMs).toBe(95);
  });
});

describe('steady state', () => {
  it('never starts before the requested warm-up', () => {
    expect(detectSteadyStart([10, 10, 10, 10, 10, 10], 2)).toBe(2);
  });
  it('moves past batches that are still slow after the warm-up', () => {
    expect(detectSteadyStart([500, 300, 200, 100, 10, 10, 10, 10, 10, 10, 10, 10], 1)).toBe(4);
  });
  it('always leaves two batches to measure', () => {
    expect(detectSteadyStart([10, 10, 10], 10)).toBe(1);
    expect(clampWarmup(10, 3)).toBe(1);
    expect(clampWarmup(5, 100)).toBe(5);
  });
});

describe('computeTrainingMetrics', () => {
  it('counts only steady batches in throughput and reports warm-up apart', () => {
    const batches = [batch(0, 1000), batch(1, 100), batch(2, 100), batch(3, 100), batch(4, 100)];
    const m = computeTrainingMetrics(batches, 1, 1);
    expect(m.measured_batches).toBe(4);
    expect(m.measured_samples).toBe(32);
    expect(m.samples_per_second).toBeCloseTo(32 / 0.4, 9);
    expect(m.warmup_total_ms).toBe(1000);
    expect(m.batch_ms_including_warmup_mean).toBe(280);
    expect(Object.values(m.phase_share).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
    expect(m.final_loss).toBe(6);
    expect(m.tensors_per_batch.leaked_per_batch).toBe(0);
  });
  it('reports a leak as tensors gained per batch', () => {
    const batches = [0, 1, 2, 3].map((i) => batch(i, 100, 0, 8, 100 + 5 * i));
    expect(computeTrainingMetrics(batches, 0, 0).tensors_per_batch.leaked_per_batch).toBe(5);
  });
  it('given two measured batches whose batch-time interval reaches 0 ms, the throughput interval is open above and says why', () => {
    // t(1 df) = 12.706: two batches 30 % apart put the batch-time interval's low end below 0
    const m = computeTrainingMetrics([batch(0, 500), batch(1, 100), batch(2, 130)], 1, 1);
    expect(m.batch_ms.ci95[0]).toBeLessThan(0);
    expect(m.samples_per_second_ci95).toEqual([(8 / m.batch_ms.ci95[1]) * 1000, null]);
    expect(m.samples_per_second_ci95_note).toBe(
      'no upper bound: the 95 % interval of the batch time over 2 measured batches reaches 0 ms; more batches close it',
    );
    const closed = computeTrainingMetrics([batch(0, 500), batch(1, 100), batch(2, 101)], 1, 1);
    expect(closed.samples_per_second_ci95).toEqual([
      (8 / closed.batch_ms.ci95[1]) * 1000,
      (8 / closed.batch_ms.ci95[0]) * 1000,
    ]);
    expect(closed.samples_per_second_ci95_note).toBeNull();
  });
  it('throws when nothing was measured', () => {
    expect(() => computeTrainingMetrics([batch(0, 100)], 1, 1)).toThrow(/no measured batches/);
  });
});
