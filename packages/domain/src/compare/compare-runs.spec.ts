import { compareRuns, diffRecords } from './compare-runs';

const noisy = (mean: number, n: number, seed: number): number[] => {
  let s = seed;
  return Array.from({ length: n }, () => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return mean * (1 + (s / 2 ** 31 - 0.5) * 0.1);
  });
};

describe('compareRuns', () => {
  it('given two runs of the same distribution, then no significant difference', () => {
    const c = compareRuns(noisy(100, 30, 1), noisy(100, 30, 2));
    expect(c.verdict).toBe('no-significant-difference');
    expect(c.p_value).toBeGreaterThan(0.05);
  });
  it('given B 20 % slower, then B is slower with a small p-value and a ratio interval around 1.2', () => {
    const c = compareRuns(noisy(100, 30, 1), noisy(120, 30, 2));
    expect(c.verdict).toBe('b-slower');
    expect(c.p_value).toBeLessThan(1e-6);
    expect(c.ratio_ci95[0]).toBeLessThan(1.2);
    expect(c.ratio_ci95[1]).toBeGreaterThan(1.19);
  });
  it('given a significant but tiny change, then it stays inside the noise band', () => {
    const a = Array.from({ length: 50 }, (_, i) => 100 + (i % 2) * 0.01);
    const c = compareRuns(
      a,
      a.map((x) => x * 1.005),
    );
    expect(c.p_value).toBeLessThan(0.05);
    expect(c.verdict).toBe('no-significant-difference');
  });
  it('refuses runs with fewer than two batches', () => {
    expect(() => compareRuns([1], [1, 2])).toThrow(/at least 2/);
  });
  it('lists only differing keys', () => {
    expect(diffRecords({ a: 1, b: 2 }, { a: 1, b: 3, c: 4 })).toEqual([
      { key: 'b', a: 2, b: 3 },
      { key: 'c', a: undefined, b: 4 },
    ]);
  });
});
