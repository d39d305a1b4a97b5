import { closePhases, type BatchTiming } from '../timing/phases';
import { computeTrainingMetrics } from '../timing/training-metrics';
import { estimateEpoch, estimateFromSample } from './epoch-estimate';

const b = (i: number, ms: number): BatchTiming => ({ index: i, warmup: false, samples: 10, startMs: 0, ...closePhases(ms, { dataWait: 0, hostToDevice: 0, forward: 0, loss: 0, backward: 0, optimizer: 0 }), loss: 1, numTensors: 1 });

describe('epoch estimates', () => {
  const m = computeTrainingMetrics([b(0, 500), b(1, 90), b(2, 110), b(3, 100), b(4, 100)], 1, 1);

  it('adds the measured warm-up once and the steady mean for the remaining batches', () => {
    const e = estimateEpoch(m, 101, 1010);
    expect(e.predicted_ms).toBeCloseTo(500 + 100 * 100, 9);
    expect(e.predicted_ms_ci95[0]).toBeLessThan(e.predicted_ms);
    expect(e.predicted_ms_ci95[1]).toBeGreaterThan(e.predicted_ms);
    expect(e.method).toMatch(/warm-up/);
  });

  it('scales the sampled epoch by the ratio without dividing the warm-up', () => {
    const e = estimateEpoch(m, 101, 1010);
    const s = estimateFromSample(m, e, 0.1);
    expect(s.full_samples_per_epoch).toBe(10100);
    expect(s.full_epoch_ms).toBeCloseTo(500 + 100 * (1010 - 1), 6);
    expect(s.method).toMatch(/not divided/);
  });
});

describe('epoch interval under drift', () => {
  it('widens the interval to the drift between the halves when batches still trend', () => {
    const trending = [0, 1, 2, 3, 4, 5, 6, 7].map((i) => b(i, 100 - i * 2));
    const m = computeTrainingMetrics(trending, 0, 0);
    expect(m.batch_ms_drift).toBeCloseTo(8, 9);
    const e = estimateEpoch(m, 100, 1000);
    expect(e.predicted_ms_ci95[1] - e.predicted_ms).toBeGreaterThanOrEqual(8 * 100 - 1e-6);
  });
});
