import type { TuneCandidate } from './tune-candidates';
import { expectedEffect, planTuneLegs, TUNE_LEGS, type TuneProbe } from './tune-plan';

const speed = (flag: string, value: string): TuneCandidate => ({ flag, value, why: '', kind: 'speed', alters: null });
const CANDIDATES = [
  speed('--pin-memory', 'true'),
  speed('--gpu', 'tensorflow'),
  speed('--dataloader-workers', '1'),
  speed('--threads', '2'),
];
// a probe on one thread of two: 20 % waiting for data, 70 % computing, no host-to-device copy
const PROBE: TuneProbe = {
  shares: { dataWait: 0.2, hostToDevice: 0, forward: 0.3, loss: 0.05, backward: 0.3, optimizer: 0.05, other: 0.1 },
  threads: 1,
  overheadMs: 1_000,
};

describe('planTuneLegs', () => {
  it('given time for every change at two legs a side, then all are measured in their order, legs as long as fits', () => {
    const plan = planTuneLegs(CANDIDATES, PROBE, 120_000);
    expect(plan.measure).toEqual(CANDIDATES);
    expect(plan.notTried).toEqual([]);
    // 2 × (4 + 1) screening legs and 4 verifying legs share 120 s, each less its start-up
    expect(plan.legMs).toBeCloseTo(120_000 / 14 - 1_000, 6);
    expect(plan.legCostMs).toBeCloseTo(120_000 / 14, 6);
  });

  it('given too little time, then the changes with the most to gain are measured and the rest named, with why', () => {
    // a shortest leg costs 4 s: 40 s fit 10 legs, i.e. 2 changes (2 × 3 + 4)
    const plan = planTuneLegs(CANDIDATES, PROBE, 40_000);
    expect(plan.measure.map((c) => c.flag)).toEqual(['--threads', '--dataloader-workers']);
    expect(plan.notTried.map((x) => x.candidate.flag)).toEqual(['--gpu', '--pin-memory']);
    expect(plan.notTried[0]!.why).toBe(
      '40.0 s were left after the probe and a leg costs 4.0 s (3.0 s of training, 1.0 s to start): 2 of 4 change(s) fit at 2 legs a side with the verification, those with the most to gain first; this one has no share of the probe to judge it by',
    );
    expect(plan.notTried[1]!.why).toMatch(/this one acts on 0\.0 % of the probe's batch time$/);
    expect(plan.legMs).toBe(TUNE_LEGS.minMs);
  });

  it('given too little time for one change and its verification, then none is measured and every one is named', () => {
    const plan = planTuneLegs(CANDIDATES, PROBE, 31_000);
    expect(plan.measure).toEqual([]);
    expect(plan.notTried).toHaveLength(4);
  });
});

describe('expectedEffect', () => {
  it('is the share of batch time a change acts on: compute for threads (1 − t/n), the data wait for the loader', () => {
    expect(expectedEffect(speed('--threads', '2'), PROBE)).toBeCloseTo(0.35, 10);
    expect(expectedEffect(speed('--threads', '4'), { ...PROBE, threads: 2 })).toBeCloseTo(0.35, 10);
    expect(expectedEffect(speed('--prefetch-factor', '4'), PROBE)).toBe(0.2);
    expect(expectedEffect(speed('--device-prefetch', '2'), PROBE)).toBe(0);
    expect(expectedEffect(speed('--gpu', 'webgpu'), PROBE)).toBeNull();
  });
});
