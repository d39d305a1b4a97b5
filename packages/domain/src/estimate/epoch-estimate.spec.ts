import { closePhases, type BatchTiming } from '../timing/phases';
import { computeTrainingMetrics } from '../timing/training-metrics';
import { estimateEpoch, estimateFromSample } from './epoch-estimate';
import { assessRun } from './run-assessment';
import { RESIDUAL_FALL } from './residual-fall';

const b = (i: number, ms: number): BatchTiming => ({
  index: i,
  warmup: false,
  samples: 10,
  startMs: 0,
  ...closePhases(ms, { dataWait: 0, hostToDevice: 0, forward: 0, loss: 0, backward: 0, optimizer: 0 }),
  loss: 1,
  numTensors: 1,
});
const walls = [500, 90, 110, 100, 100];
const a = assessRun({ wallMs: walls, cpu: [], disturbed: [] }, { minWarmup: 1, batchesPerEpoch: 101 });

describe('epoch estimates', () => {
  const m = computeTrainingMetrics(
    walls.map((w, i) => b(i, w)),
    a.steadyStart,
    1,
  );

  it('adds the batches run as they took and the steady mean for the remaining batches', () => {
    const e = estimateEpoch(m, 101, 1010, a);
    expect(e.predicted_ms).toBeCloseTo(500 + 400 + 100 * 96 * (1 - RESIDUAL_FALL), 9);
    expect(e.predicted_ms_ci95[0]).toBeLessThan(e.predicted_ms);
    expect(e.predicted_ms_ci95[1]).toBeGreaterThan(e.predicted_ms);
    expect(e.method).toMatch(/warm-up/);
  });

  it('scales the sampled epoch by the ratio without dividing the warm-up', () => {
    const e = estimateEpoch(m, 101, 1010, a);
    const s = estimateFromSample(m, e, 0.1, a);
    expect(s.full_samples_per_epoch).toBe(10100);
    expect(s.full_epoch_ms).toBeCloseTo(500 + 400 + 100 * (1010 - 5) * (1 - RESIDUAL_FALL), 6);
    expect(s.full_epoch_ms_ci95[1] - s.full_epoch_ms).toBeGreaterThan(e.predicted_ms_ci95[1] - e.predicted_ms);
    expect(s.method).toMatch(/not divided/);
  });
});
