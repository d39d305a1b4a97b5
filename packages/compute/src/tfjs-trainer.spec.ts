import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-wasm';
import { createTrainer, NonFiniteValueError, type TfjsTrainer } from '@maou/bench-engine';
import { type HostBatch, type Stage3Columns } from '@maou/bench-domain';
import { buildSampleRecordsOffThread } from '@maou/bench-testkit/arrow';
import { randomBatch, TRAINING, fastWasmBackend } from '@maou/bench-testkit/compute';

const clock = { now: () => performance.now(), wallTime: () => new Date() };

function hostBatch(c: Stage3Columns, start: number, size: number): HostBatch {
  const rows = (a: Float32Array | Uint8Array, per: number) => a.subarray(start * per, (start + size) * per);
  return {
    stage: 3,
    size,
    boardIds: Int32Array.from(rows(c.boardIdPositions, 81)),
    hands: Float32Array.from(rows(c.piecesInHand, 14)),
    targets: {
      stage: 3,
      moveLabel: Float32Array.from(rows(c.moveLabel, 1496)),
      resultValue: Float32Array.from(rows(c.resultValue, 1)),
    },
  };
}

describe('TfjsTrainer on wasm', () => {
  const wasm = fastWasmBackend();
  beforeAll(wasm.setUp);
  afterAll(wasm.tearDown);

  it('lowers the Stage 3 loss over 200 batches of sample data without leaking tensors', async () => {
    const columns = (await buildSampleRecordsOffThread(3, 32, 3)).columns as Stage3Columns;
    const before = tf.memory().numTensors;
    const trainer = createTrainer({
      stage: 3,
      training: { ...TRAINING, lrScheduler: 'none', valueLossRatio: 1 },
      totalSteps: 200,
      seed: 1,
    });
    const batches = [0, 8, 16, 24].map((s) => hostBatch(columns, s, 8));
    const losses: number[] = [];
    const counts = new Set<number>();
    for (let i = 0; i < 200; i++) {
      const r = await trainer.step(batches[i % 4], clock);
      losses.push(r.loss);
      if (i > 0) counts.add(r.numTensors);
      expect(Object.values(r.phasesMs).every((ms) => ms >= 0)).toBe(true);
    }
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    expect(mean(losses.slice(-8))).toBeLessThan(0.5 * mean(losses.slice(0, 8)));
    expect(counts.size).toBe(1);
    const ev = await trainer.evaluate(batches[0], clock);
    expect(ev.metrics.policy_accuracy).toBeGreaterThan(0.5);
    trainer.dispose();
    // weights, BN statistics and optimiser state are all freed
    expect(tf.memory().numTensors).toBe(before);
  }, 90_000);

  it('accumulates gradients and only steps the optimiser and LR every n batches', async () => {
    const trainer = createTrainer({
      stage: 1,
      training: { ...TRAINING, gradientAccumulationSteps: 2, lrScheduler: 'cosine_annealing' },
      totalSteps: 8,
      seed: 2,
    }) as TfjsTrainer;
    const w = trainer.network.store.parameters[0].variable;
    const before = await w.data();
    const batch = randomBatch(1, 4, 1);
    const r1 = await trainer.step(batch, clock);
    expect(r1.phasesMs.optimizer).toBe(0);
    expect(Array.from(await w.data())).toEqual(Array.from(before));
    expect(trainer.currentLearningRate()).toBe(TRAINING.learningRate);
    await trainer.step(batch, clock);
    expect(Array.from(await w.data())).not.toEqual(Array.from(before));
    expect(trainer.currentLearningRate()).toBeLessThan(TRAINING.learningRate);
    trainer.dispose();
  });

  it('given 1, 2 or 4 accumulation steps on the same seed and batch, then every step reports the batch’s own loss, not a multiple of it', async () => {
    const batch = randomBatch(3, 8, 6);
    const firstLoss = async (steps: number, microBatchSize?: number): Promise<number> => {
      const trainer = createTrainer({
        stage: 3,
        training: { ...TRAINING, gradientAccumulationSteps: steps },
        totalSteps: 8,
        seed: 9,
        ...(microBatchSize ? { microBatchSize } : {}),
      });
      try {
        // the first step runs before any update, so every setting sees the same weights
        return (await trainer.step(batch, clock)).loss;
      } finally {
        trainer.dispose();
      }
    };
    const one = await firstLoss(1);
    expect(one).toBeGreaterThan(1);
    expect(await firstLoss(2)).toBeCloseTo(one, 5);
    expect(await firstLoss(4)).toBeCloseTo(one, 5);
    // micro-batches of 4 rows: two pieces, each weighted by its half of the batch
    const micro = await firstLoss(1, 4);
    expect(await firstLoss(4, 4)).toBeCloseTo(micro, 5);
  });

  it('takes a planned cycle at the next cycle boundary, and measures the gradient norms of a measured cycle only', async () => {
    const trainer = createTrainer({
      stage: 1,
      training: { ...TRAINING, gradientAccumulationSteps: 2 },
      totalSteps: 16,
      seed: 4,
    });
    const batch = randomBatch(1, 4, 5);
    const cycles: [number, boolean, boolean][] = [];
    const step = async () => {
      const r = await trainer.step(batch, clock);
      cycles.push([r.accumulation!.steps, r.accumulation!.optimizerStep, r.gradientNorms !== undefined]);
      return r;
    };
    await step();
    // planned mid-cycle: the cycle in progress keeps its 2 steps
    trainer.planCycle!({ accumulationSteps: 3, measureGradientNorms: true });
    await step();
    await step();
    await step();
    const measured = await step();
    trainer.planCycle!({ accumulationSteps: 2, measureGradientNorms: false });
    await step();
    await step();
    expect(cycles).toEqual([
      [2, false, false],
      [2, true, false],
      [3, false, false],
      [3, false, false],
      [3, true, true],
      [2, false, false],
      [2, true, false],
    ]);
    // three pieces of 4 rows make the 12-row update
    expect(measured.gradientNorms).toMatchObject({ smallRows: [4, 4, 4], bigRows: 12 });
    expect(measured.gradientNorms!.smallSquaredNorms.every((n) => n > 0)).toBe(true);
    trainer.dispose();
  });

  it('splits a batch into micro-batches with the same live tensors after each step', async () => {
    const trainer = createTrainer({ stage: 2, training: TRAINING, totalSteps: 4, seed: 3, microBatchSize: 2 });
    const batch = randomBatch(2, 5, 4);
    const a = await trainer.step(batch, clock);
    const b = await trainer.step(batch, clock);
    expect(Number.isFinite(a.loss)).toBe(true);
    expect(b.numTensors).toBe(a.numTensors);
    trainer.dispose();
  });

  it('--detect-anomaly names the batch and the tensor', async () => {
    const trainer = createTrainer({
      stage: 3,
      training: { ...TRAINING, detectAnomaly: true },
      totalSteps: 4,
      seed: 4,
    }) as TfjsTrainer;
    const batch = randomBatch(3, 2, 5);
    await trainer.step(batch, clock);
    const head = trainer.network.store.parameters.find((p) => p.name === 'value_head.bias')!.variable;
    head.assign(tf.tensor1d([NaN]));
    await expect(trainer.step(batch, clock)).rejects.toThrow(new NonFiniteValueError(1, 'loss'));
    trainer.dispose();
  });
});
