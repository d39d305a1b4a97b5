import { assessRun, RUN_TO_RUN_SPREAD } from './run-assessment';
import { measureWander, mergeWander, parseWanderProfile, wanderAt, type WanderProfile } from './machine-wander';
import { emptyFall } from './residual-fall';

/** Batches of `ms` that alternate ±`swing` every `periodMs` of run time: a machine whose speed wanders. */
const wandering = (n: number, ms: number, swing: number, periodMs: number): number[] => {
  let t = 0;
  return Array.from({ length: n }, () => {
    const w = ms * (Math.floor(t / periodMs) % 2 === 0 ? 1 + swing : 1 - swing);
    t += w;
    return w;
  });
};

/** Independent batch times around `ms` with a relative spread `sd` (a fixed-seed generator). */
const noisy = (n: number, ms: number, sd: number, seed = 7): number[] => {
  let s = seed;
  const uniform = () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
  return Array.from(
    { length: n },
    () => ms * (1 + sd * Math.sqrt(-2 * Math.log(uniform() + 1e-12)) * Math.cos(2 * Math.PI * uniform())),
  );
};

const rawRms = (p: WanderProfile, seconds: number): number => {
  const w = p.windows.find((x) => x.seconds === seconds)!;
  return Math.sqrt(w.sumSquares / w.count);
};

describe('machine wander', () => {
  it('given a machine that alternates ±10 % every 2 s, then 1 s and 2 s windows stray ~10 % and 20 s windows barely', () => {
    const p = measureWander(wandering(6600, 10, 0.1, 2000));
    expect(wanderAt(p, 1)!.rms).toBeGreaterThan(0.08);
    expect(wanderAt(p, 1)!.rms).toBeLessThan(0.12);
    expect(wanderAt(p, 2)!.rms).toBeGreaterThan(0.08);
    // 20 s windows hold five fast and five slow stretches: they sit at the mean (fewer than 8 of them: not yet known)
    const at20 = p.windows.find((w) => w.seconds === 20)!;
    expect(at20.count).toBe(3);
    expect(Math.sqrt(at20.sumSquares / at20.count)).toBeLessThan(0.02);
  });

  it('given independent batch noise only, then the correction leaves almost no wander where the raw windows show some', () => {
    const p = measureWander(noisy(24_000, 10, 0.3));
    expect(rawRms(p, 1)).toBeGreaterThan(0.025);
    expect(wanderAt(p, 1)!.rms).toBeLessThan(rawRms(p, 1) / 2);
  });

  it('given looks of different lengths, then the longest known window no longer than the look answers, else the shortest', () => {
    const p = measureWander(wandering(6000, 10, 0.1, 2000));
    // 60 s of batches: 1 s (~60 windows), 2 s (~30), 5 s (~12) and 10 s (~6, too few) are measured
    expect(wanderAt(p, 0.3)!.windowS).toBe(1);
    expect(wanderAt(p, 4)!.windowS).toBe(2);
    expect(wanderAt(p, 300)!.windowS).toBe(5);
    expect(wanderAt(null, 10)).toBeNull();
    expect(wanderAt(measureWander(noisy(100, 10, 0.1)), 1)).toBeNull();
  });

  it('given a calm record and then wandering runs, then the newer runs weigh more each time', () => {
    const calm = measureWander(noisy(6000, 10, 0.05));
    const rough = measureWander(wandering(6000, 10, 0.1, 2000));
    let record = mergeWander(null, calm);
    const seen = [wanderAt(record, 2)!.rms];
    for (let i = 0; i < 3; i++) {
      record = mergeWander(record, rough);
      seen.push(wanderAt(record, 2)!.rms);
    }
    expect(record.runs).toBe(4);
    expect(seen[0]).toBeLessThan(0.01);
    for (let i = 1; i < seen.length; i++) expect(seen[i]).toBeGreaterThan(seen[i - 1]!);
  });

  it('given a stored value that is not a record, then it is refused', () => {
    const ok = mergeWander(null, measureWander(wandering(3000, 10, 0.1, 2000)));
    expect(parseWanderProfile(JSON.parse(JSON.stringify(ok)))).toEqual(ok);
    expect(parseWanderProfile(null)).toBeNull();
    expect(parseWanderProfile({ ...ok, version: 2 })).toBeNull();
    expect(parseWanderProfile({ ...ok, windows: [{ seconds: 1, sumSquares: -1, noise: 0, count: 3 }] })).toBeNull();
    expect(parseWanderProfile({ ...ok, windows: 'x' })).toBeNull();
  });

  it('given a wandering machine, then a short look counts its wander as run-to-run spread; without a record, the constant', () => {
    const look = noisy(200, 10, 0.05, 3);
    const series = { wallMs: look, cpu: look.map(() => undefined), disturbed: look.map(() => false) };
    const options = { minWarmup: 5, batchesPerEpoch: 20_000 };
    const record = mergeWander(null, measureWander(wandering(6000, 10, 0.1, 2000)));
    const plain = assessRun(series, options);
    const judged = assessRun(series, { ...options, machine: { version: 2, wander: record, fall: emptyFall() } });
    expect(plain.basis.runToRun).toBe(RUN_TO_RUN_SPREAD);
    expect(plain.wander).toBeNull();
    expect(judged.wander!.windowS).toBe(1);
    expect(judged.basis.runToRun).toBeCloseTo(1.96 * judged.wander!.rms, 12);
    expect(judged.basis.runToRun).toBeGreaterThan(0.15);
    expect(judged.predictedMs).toBe(plain.predictedMs);
    expect(judged.halfWidthFraction).toBeGreaterThan(plain.halfWidthFraction + 0.1);
    expect(judged.notes.join(' ')).toMatch(/this machine's speed over 1 s windows strayed ±\d+\.\d % \(95 %\)/);
    // a calm machine's record does not narrow the interval below the constant
    const calm = mergeWander(null, measureWander(noisy(6000, 10, 0.05)));
    expect(
      assessRun(series, { ...options, machine: { version: 2, wander: calm, fall: emptyFall() } }).basis.runToRun,
    ).toBe(RUN_TO_RUN_SPREAD);
  });
});
