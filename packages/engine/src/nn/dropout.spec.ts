import '@tensorflow/tfjs-backend-cpu';
import * as tf from '@tensorflow/tfjs-core';
import { TapeRecorder } from '../tape/tape-recorder';
import { dropout, dropoutKeep, dropoutMask, lowbias32 } from './dropout';

describe('dropout masks from a counter-based hash', () => {
  beforeAll(async () => {
    await tf.setBackend('cpu');
  });

  it('lowbias32 gives the published function (values from an independent Python implementation)', () => {
    expect([1, 2, 0xdeadbeef].map(lowbias32)).toEqual([0x688990c0, 0xd1132181, 0xe628c683]);
  });

  it.each([0.1, 0.15, 0.5])('rate %d: keeps 1 − rate of 200,000 elements, scaled so the mean stays 1', (rate) => {
    const mask = dropoutMask(200_000, rate, 12345);
    const scale = Math.fround(1 / (1 - rate));
    expect(mask.every((m) => m === 0 || m === scale)).toBe(true);
    const kept = mask.filter((m) => m !== 0).length / mask.length;
    // 4 standard deviations of a binomial proportion
    expect(Math.abs(kept - (1 - rate))).toBeLessThan(4 * Math.sqrt((rate * (1 - rate)) / mask.length));
    // neighbours are independent: a kept element is followed by a kept one at the overall rate
    let pairs = 0;
    let both = 0;
    for (let i = 1; i < mask.length; i += 1)
      if (mask[i - 1] !== 0) {
        pairs += 1;
        if (mask[i] !== 0) both += 1;
      }
    expect(Math.abs(both / pairs - (1 - rate))).toBeLessThan(4 * Math.sqrt((rate * (1 - rate)) / pairs));
  });

  it('the same seed draws the same mask; another seed another', () => {
    expect(dropoutMask(1000, 0.2, 7)).toEqual(dropoutMask(1000, 0.2, 7));
    const [a, b] = [dropoutMask(1000, 0.2, 7), dropoutMask(1000, 0.2, 8)];
    expect(a.filter((v, i) => (v === 0) !== (b[i] === 0)).length).toBeGreaterThan(200);
  });

  it('refuses a rate outside [0, 1), naming it', () => {
    expect(() => dropoutKeep(1, 0)).toThrow('dropout rate 1: must be in [0, 1)');
    expect(() => dropoutKeep(Number.NaN, 0)).toThrow('dropout rate NaN');
  });

  it('dropout multiplies by the mask, is the identity outside training or at rate 0, and its gradient is the mask', () => {
    const x = tf.tensor2d(
      Array.from({ length: 60 }, (_, i) => i - 30),
      [6, 10],
    );
    const seeds = () => 99;
    const mask = dropoutMask(60, 0.25, 99);
    expect(Array.from(dropout(x, 0.25, seeds).dataSync())).toEqual(
      Array.from(x.dataSync()).map((v, i) => Math.fround(v * mask[i]!)),
    );
    expect(dropout(x, 0.25, null)).toBe(x);
    expect(dropout(x, 0, seeds)).toBe(x);
    // through the engine's own tape, as training differentiates
    const v = tf.variable(x);
    const tape = new TapeRecorder();
    tape.begin();
    const [g] = tape.backward(tf.sum(dropout(v, 0.25, seeds)), [v]);
    expect(Array.from(g!.dataSync())).toEqual(Array.from(mask));
  });
});
