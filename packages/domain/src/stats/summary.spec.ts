import { quantileSorted, summarize, tQuantile95 } from './summary';
import { twoSidedP } from './student-t';

describe('summarize', () => {
  it('given a known series, when summarised, then order statistics and the t interval match hand values', () => {
    const s = summarize([4, 1, 3, 2, 5]);
    expect(s.mean).toBe(3);
    expect(s.median).toBe(3);
    expect(s.min).toBe(1);
    expect(s.max).toBe(5);
    expect(s.stdev).toBeCloseTo(Math.sqrt(2.5), 12);
    const half = 2.776 * (Math.sqrt(2.5) / Math.sqrt(5));
    expect(s.ci95[0]).toBeCloseTo(3 - half, 9);
    expect(s.ci95[1]).toBeCloseTo(3 + half, 9);
    expect(s.p90).toBeCloseTo(4.6, 12);
  });

  it('given an empty series, then figures are NaN and n is 0', () => {
    const s = summarize([]);
    expect(s.n).toBe(0);
    expect(Number.isNaN(s.mean)).toBe(true);
  });

  it('interpolates quantiles and uses the normal value for large df', () => {
    expect(quantileSorted([0, 10], 0.25)).toBe(2.5);
    expect(tQuantile95(1000)).toBe(1.96);
  });
});

describe('Student t p-values', () => {
  it.each([
    [2.228, 10, 0.05],
    [12.706, 1, 0.05],
    [0, 5, 1],
    [3.169, 10, 0.01],
  ])('t=%p df=%p gives p≈%p', (t, df, p) => {
    expect(twoSidedP(t, df)).toBeCloseTo(p, 3);
  });
});
