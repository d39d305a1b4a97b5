import '@tensorflow/tfjs-backend-cpu';
import * as tf from '@tensorflow/tfjs-core';
import { phaseOfInterval, profileStep } from './kernel-profiler';

// Runs `f` as one timed interval of the step: the profiler splits a step's kernels at the clock's readings.
const timed = async <R>(c: { now(): number }, f: () => R): Promise<R> => {
  c.now();
  const r = f();
  c.now();
  return r;
};

describe('kernel profiler', () => {
  it('maps timed intervals to phases, with micro-batches and an anomaly check', () => {
    expect([0, 1, 2, 3, 4].map((j) => phaseOfInterval(j, 5))).toEqual([
      'hostToDevice',
      'forward',
      'loss',
      'backward',
      'optimizer',
    ]);
    expect(phaseOfInterval(5, 9)).toBe('forward');
    expect(phaseOfInterval(8, 9)).toBe('optimizer');
    expect(phaseOfInterval(4, 6)).toBe('backward');
  });

  it('attributes real cpu kernels to the interval they ran in', async () => {
    await tf.setBackend('cpu');
    const { phases } = await profileStep(0, { now: () => 0 }, async (c) => {
      const x = await timed(c, () => tf.tensor1d([1, 2, 3]));
      const y = await timed(c, () => tf.relu(x));
      const l = await timed(c, () => tf.sum(y));
      const g = await timed(c, () => tf.mul(l, 2));
      await timed(c, () => tf.add(g, 1));
      tf.dispose([x, y, l, g]);
    });
    const names = Object.fromEntries(phases.map((p) => [p.phase, p.kernels.map((k) => k.name)]));
    expect(names.forward).toEqual(['Relu']);
    expect(names.loss).toEqual(['Sum']);
    expect(names.backward).toEqual(['Multiply']);
    expect(names.optimizer).toEqual(['Add']);
  });

  it('counts a custom-gradient forward once: its kernels, not also the scope tfjs records around them', async () => {
    await tf.setBackend('cpu');
    const doubledRelu = tf.customGrad((input, save) => {
      const v = input as tf.Tensor;
      (save as tf.GradSaveFunc)([v]);
      return {
        value: tf.mul(tf.relu(v), 2),
        gradFunc: (dy: tf.Tensor, [s]: tf.Tensor[]) => [tf.mul(dy, tf.mul(tf.step(s!), 2))],
      };
    });
    const x = tf.tensor1d([-1, 2, 3]);
    // tfjs itself: the forward's kernels, then one more record for the scope it ran in, timed around them
    const raw = await tf.profile(() => tf.tidy(() => doubledRelu(x)));
    expect(raw.kernels.map((k) => k.name)).toEqual(['Relu', 'Multiply', 'unnamed scope']);
    tf.dispose(raw.result);
    const { phases } = await profileStep(0, { now: () => 0 }, async (c) => {
      await timed(c, () => null);
      const y = await timed(c, () => tf.tidy(() => doubledRelu(x)));
      const l = await timed(c, () => tf.sum(y));
      await timed(c, () => null);
      await timed(c, () => null);
      tf.dispose([y, l]);
    });
    const names = Object.fromEntries(phases.map((p) => [p.phase, p.kernels.map((k) => k.name)]));
    expect(names.forward).toEqual(['Relu', 'Multiply']);
    expect(names.loss).toEqual(['Sum']);
    expect(phases.flatMap((p) => p.kernels).every((k) => tf.getKernel(k.name, 'cpu') !== undefined)).toBe(true);
    x.dispose();
  });
});
