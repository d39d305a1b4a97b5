import type { BenchmarkTrainingReport } from '@maou/bench-domain';
import { trainingReportFixture } from '@maou/bench-testkit/report';
import { phaseBreakdownChart } from './training-timing-charts';
import { epochChart } from './training-summary-charts';

const withInterval = (low: number, high: number): BenchmarkTrainingReport => {
  const r = trainingReportFixture();
  return {
    ...r,
    epoch_estimate: { ...r.epoch_estimate, predicted_ms: (low + high) / 2, predicted_ms_ci95: [low, high] },
  };
};

describe('the epoch chart', () => {
  it('pads the interval but never starts the axis below 0 s', () => {
    // a wide interval near 0 (a disturbed run reaching down to the quiet floor): 60 % padding would go to −4.2 s
    const axis = (epochChart(withInterval(1_000, 9_000)).option.xAxis as { min: number; max: number }[])[0]!;
    expect(axis.min).toBe(0);
    expect(axis.max).toBeGreaterThan(9);
  });

  it('keeps the padding where it stays above 0', () => {
    const axis = (epochChart(withInterval(100_000, 110_000)).option.xAxis as { min: number; max: number }[])[0]!;
    expect(axis.min).toBeCloseTo(94, 3);
    expect(axis.max).toBeCloseTo(116, 3);
  });
});

describe('the phase breakdown', () => {
  it('gives every share with one decimal, small ones too', () => {
    const r = trainingReportFixture();
    const share = { ...r.training_metrics.phase_share, hostToDevice: 0.00172, forward: 0.165 };
    const { caption } = phaseBreakdownChart({ ...r, training_metrics: { ...r.training_metrics, phase_share: share } });
    expect(caption).toContain('0.2 %');
    expect(caption).toContain('16.5 %');
    expect(caption.match(/[\d.]+ %/g)!.every((p) => /^\d+\.\d %$/.test(p))).toBe(true);
  });
});
