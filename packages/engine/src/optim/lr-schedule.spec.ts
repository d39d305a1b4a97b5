import { normalizePolicyTargets } from '../loss/host-targets';
import { createLrSchedule } from './lr-schedule';

describe('createLrSchedule', () => {
  it('reproduces maou warmup+cosine trace (base 1, warmup 3, total 10)', () => {
    const lr = createLrSchedule('warmup_cosine_decay', 1, 10, 3);
    const trace = Array.from({ length: 11 }, (_, s) => Number(lr(s).toFixed(4)));
    expect(trace).toEqual([0.3333, 0.6667, 1, 1, 0.9505, 0.8117, 0.6113, 0.3887, 0.1883, 0.0495, 0]);
  });

  it('anneals by cosine and steps by tenths each third', () => {
    const cos = createLrSchedule('cosine_annealing', 2, 4);
    expect([0, 2, 4].map(cos)).toEqual([2, 1, 0]);
    const step = createLrSchedule('step', 1, 9);
    expect([0, 2, 3, 6].map((s) => Number(step(s).toFixed(6)))).toEqual([1, 1, 0.1, 0.01]);
    expect(createLrSchedule('none', 0.5, 9)(7)).toBe(0.5);
  });
});

describe('normalizePolicyTargets', () => {
  it('normalises rows, keeps empty rows zero and returns Σ t log t', () => {
    const { target, negEntropySum } = normalizePolicyTargets(Float32Array.from([1, 1, 0, 0, 0, 0]), 2, 3);
    expect(Array.from(target)).toEqual([0.5, 0.5, 0, 0, 0, 0]);
    expect(negEntropySum).toBeCloseTo(Math.log(0.5), 6);
  });
});
