import { assessRun, type RunSeries } from './run-assessment';
import {
  emptyFall,
  FALL_CLIP,
  FALL_PRIOR_SPREAD,
  fallAt,
  mergeFall,
  parseFallProfile,
  RESIDUAL_FALL,
} from './residual-fall';
import { measureFall, recordRun } from './record-run';
import { parseMachineProfile } from './machine-profile';
import { measureWander, mergeWander } from './machine-wander';

/** A run of `n` batches: a 5-batch warm-up, then `ms` ± a deterministic jitter, × `later` from batch `from` on. */
const run = (n: number, ms: number, from: number, later: number): RunSeries => {
  const wallMs = Array.from({ length: n }, (_, i) =>
    i < 5 ? 4 * ms : ms * (i >= from ? later : 1) * (1 + 0.02 * Math.sin(i * 1.7)),
  );
  return { wallMs, cpu: wallMs.map(() => undefined), disturbed: wallMs.map(() => false) };
};

describe('the residual fall, measured on the machine', () => {
  it('given a run whose batches ran 5 % slower after its first 300, then each cut it is long enough for measures that', () => {
    const falls = measureFall(run(6000, 10, 300, 1.05), 5);
    // 6,000 batches hold cuts up to 500 (the rest at least 9 looks); the 100 and 200 looks saw only the fast part
    expect([...falls.keys()]).toEqual([100, 200, 500]);
    for (const cut of [100, 200]) {
      const restMean = (10 * (300 - cut) + 10.5 * 5700) / (6000 - cut);
      expect(falls.get(cut)!).toBeCloseTo(1 - restMean / 10, 2);
    }
    // the look of 500 saw part of the slower stretch: less of the rise was still ahead
    expect(falls.get(500)!).toBeGreaterThan(falls.get(100)! + 0.005);
    expect(falls.get(100)!).toBeLessThan(-0.04);
  });

  it('given a look other processes disturbed, then that cut measures nothing; disturbed batches of the rest are left out', () => {
    const s = run(2000, 10, 2000, 1);
    const look = { ...s, disturbed: s.disturbed.map((_, i) => i < 120) };
    expect(measureFall(look, 5).has(100)).toBe(false);
    // a tenth of the rest slowed 3× by a neighbour, flagged: the fall stays near none
    const busy = { ...s, wallMs: s.wallMs.map((w, i) => (i >= 1000 && i < 1200 ? 3 * w : w)) };
    const flagged = { ...busy, disturbed: busy.wallMs.map((_, i) => i >= 1000 && i < 1200) };
    expect(Math.abs(measureFall(flagged, 5).get(100)!)).toBeLessThan(0.01);
    expect(measureFall(busy, 5).get(100)!).toBeLessThan(-0.15);
  });

  it('given three runs that agree, then the record speaks at the longest cut within the look, and shrinks past its longest cut', () => {
    const both = new Map([
      [100, 0.04],
      [200, 0.03],
    ]);
    let fall = mergeFall(null, both);
    expect(fallAt(fall, 150)).toBeNull();
    fall = mergeFall(mergeFall(fall, both), both);
    expect(fallAt(fall, 150)).toMatchObject({ afterBatches: 100, runs: 2.71 });
    expect(fallAt(fall, 150)!.fraction).toBeCloseTo(0.04, 12);
    expect(fallAt(fall, 20)!.afterBatches).toBe(100);
    expect(fallAt(fall, 200)!.fraction).toBeCloseTo(0.03, 12);
    expect(fallAt(fall, 400)!.fraction).toBeCloseTo(0.03 / 4, 12);
    // one outlying run is clipped and decays
    const wild = mergeFall(fall, new Map([[100, -0.9]]));
    expect(wild.cuts[0]!.sum).toBeCloseTo(0.04 * 2.71 * 0.9 - FALL_CLIP, 12);
  });

  it('given runs that disagree, then their mean counts as far as it is known against the constant', () => {
    // falls of +10 % and −10 %, alternating: a look's wander, not the machine's fall
    let fall = emptyFall();
    const falls = [0.1, -0.1, 0.1, -0.1, 0.1, -0.1];
    for (const f of falls.slice(0, 3)) fall = mergeFall(fall, new Map([[100, f]]));
    // by hand: decayed mean 0.0336 over 2.71 runs, spread 0.0141, trust 2.71 ÷ (2.71 + 0.0141 ÷ 0.02²) = 0.0716
    expect(FALL_PRIOR_SPREAD).toBe(0.02);
    const mean = 0.091 / 2.71;
    expect(fallAt(fall, 100)!.fraction).toBeCloseTo(0.025614, 6);
    expect((fallAt(fall, 100)!.fraction - RESIDUAL_FALL) / (mean - RESIDUAL_FALL)).toBeLessThan(0.2);
    // the same mean from runs that agree is believed whole
    let agreed = emptyFall();
    for (let k = 0; k < 3; k++) agreed = mergeFall(agreed, new Map([[100, mean]]));
    expect(fallAt(agreed, 100)!.fraction).toBeCloseTo(mean, 12);
    // more scattered runs: still near the constant
    for (const f of falls.slice(3)) fall = mergeFall(fall, new Map([[100, f]]));
    expect(Math.abs(fallAt(fall, 100)!.fraction - RESIDUAL_FALL)).toBeLessThan(0.01);
  });

  it('given a record with a fall, then the prediction counts it, and without one the constant', () => {
    const look = run(100, 10, 100, 1);
    const options = { minWarmup: 5, batchesPerEpoch: 10_000 };
    const plain = assessRun(look, options);
    expect(plain.fall).toBeNull();
    expect(plain.basis.residualFall).toBe(RESIDUAL_FALL);
    let fall = emptyFall();
    for (let k = 0; k < 3; k++) fall = mergeFall(fall, new Map([[100, -0.04]]));
    const machine = { version: 2 as const, wander: mergeWander(null, measureWander([])), fall };
    const judged = assessRun(look, { ...options, machine });
    expect(judged.fall).toMatchObject({ afterBatches: 100 });
    expect(judged.basis.residualFall).toBeCloseTo(-0.04, 12);
    const rest = (10_000 - 100) * judged.meanMs;
    expect(judged.predictedMs - plain.predictedMs).toBeCloseTo(rest * (RESIDUAL_FALL + 0.04), 3);
  });

  it('given a finished run, then the record gains its wander and its falls; a version 1 record is read with no fall', () => {
    const s = run(3000, 10, 3000, 1);
    const record = recordRun(null, { series: s, minWarmup: 5, steadyStart: 5 })!;
    expect(record.version).toBe(2);
    expect(record.fall.cuts.filter((c) => c.weight === 1).map((c) => c.batches)).toEqual([100, 200]);
    expect(record.wander.runs).toBe(1);
    expect(parseMachineProfile(JSON.parse(JSON.stringify(record)))).toEqual(record);
    expect(recordRun(record, { series: run(30, 10, 30, 1), minWarmup: 5, steadyStart: 5 })).toBeNull();
    const v1 = mergeWander(null, measureWander(s.wallMs.slice(5)));
    expect(parseMachineProfile(v1)).toEqual({ version: 2, wander: v1, fall: emptyFall() });
    expect(
      parseMachineProfile({ version: 2, wander: v1, fall: { cuts: [{ batches: 100, sum: 5, sumSq: 25, weight: 1 }] } }),
    ).toBeNull();
    // a spread larger than every run at the clip, or smaller than the runs all equal, is no record
    for (const sumSq of [1, 0.0001])
      expect(parseFallProfile({ cuts: [{ batches: 100, sum: 0.1, sumSq, weight: 2 }] })).toBeNull();
    // kept before the spread was: read with the wander, the fall measured again
    const before = { version: 2, wander: v1, fall: { cuts: [{ batches: 100, sum: 0.05, weight: 1 }] } };
    expect(parseMachineProfile(before)).toEqual({ version: 2, wander: v1, fall: emptyFall() });
    expect(parseFallProfile({ cuts: 'x' })).toBeNull();
    expect(parseMachineProfile({ version: 3 })).toBeNull();
  });
});
