import '@tensorflow/tfjs-backend-wasm';
import { createTrainer, NonFiniteValueError, type BackendInfo, type TrainerOptions } from '@maou/bench-engine';
import { randomBatch, TRAINING, fastWasmBackend } from '@maou/bench-testkit/compute';
import { createBackendRegistry } from '../../../register-backends';
import { DataParallelTrainer } from './data-parallel-trainer';
import { useCpuKernels } from '../native/native-kernels';

const clock = { now: () => performance.now(), wallTime: () => new Date() };
const options: TrainerOptions = {
  stage: 3,
  training: { ...TRAINING, lrScheduler: 'warmup_cosine_decay' },
  totalSteps: 50,
  seed: 7,
};
const wasmInfo = (threads: number): BackendInfo => ({ name: 'wasm', version: 'x', threads, device: 'cpu', notes: [] });

describe('DataParallelTrainer (2 wasm replicas in worker threads)', () => {
  const wasm = fastWasmBackend();
  beforeAll(wasm.setUp);
  afterAll(wasm.tearDown);

  it('given the same seed and batches, then every step matches one trainer running the two shards as micro-batches', async () => {
    // Two shards with per-shard batch norm are exactly two micro-batches of half the batch: same losses, same update.
    // Plain SGD without clipping, so that a wrongly scaled gradient sum changes the losses of later steps.
    const sgd: TrainerOptions = {
      ...options,
      training: { ...options.training, optimizer: 'sgd', learningRate: 0.5, gradientClip: 0 },
    };
    const single = createTrainer({ ...sgd, microBatchSize: 6 });
    const parallel = new DataParallelTrainer(sgd, 2);
    try {
      await parallel.ready();
      expect(parallel.parameterCount).toBe(single.parameterCount);
      expect(parallel.currentLearningRate()).toBeCloseTo(single.currentLearningRate(), 12);
      const losses: number[] = [];
      for (let i = 0; i < 4; i++) {
        const batch = randomBatch(3, 12, 100 + (i % 2));
        const [a, b] = [await single.step(batch, clock), await parallel.step(batch, clock)];
        losses.push(a.loss);
        expect(b.loss).toBeCloseTo(a.loss, 4);
        expect(parallel.currentLearningRate()).toBeCloseTo(single.currentLearningRate(), 12);
        expect(Object.values(b.phasesMs).every((ms) => ms >= 0)).toBe(true);
      }
      expect(losses[2]).toBeLessThan(losses[0]! - 0.01);
      const evalBatch = randomBatch(3, 9, 1);
      const e = await parallel.evaluate(evalBatch, clock);
      expect(Number.isFinite(e.loss)).toBe(true);
      expect(Object.keys(e.metrics).sort()).toEqual(
        Object.keys((await single.evaluate(evalBatch, clock)).metrics).sort(),
      );
    } finally {
      single.dispose();
      parallel.dispose();
    }
  }, 120_000);

  it('given gradient norms asked for, then two replicas report what one trainer does with the same two micro-batches, and heap bytes', async () => {
    const measured: TrainerOptions = {
      ...options,
      measureGradientNorms: true,
      training: { ...options.training, gradientClip: 0.5 },
    };
    const single = createTrainer({ ...measured, microBatchSize: 6 });
    const whole = createTrainer({ ...measured, microBatchSize: 12 });
    const parallel = new DataParallelTrainer(measured, 2);
    try {
      await parallel.ready();
      for (let i = 0; i < 2; i++) {
        const batch = randomBatch(3, 12, 300 + i);
        const [a, b, w] = [
          await single.step(batch, clock),
          await parallel.step(batch, clock),
          await whole.step(batch, clock),
        ];
        expect(a.gradientNorms!.smallRows).toEqual([6, 6]);
        expect(b.gradientNorms!.smallRows).toEqual([6, 6]);
        expect(b.gradientNorms!.bigRows).toBe(12);
        for (const k of [0, 1])
          expect(b.gradientNorms!.smallSquaredNorms[k]! / a.gradientNorms!.smallSquaredNorms[k]!).toBeCloseTo(1, 3);
        expect(b.gradientNorms!.bigSquaredNorm / a.gradientNorms!.bigSquaredNorm).toBeCloseTo(1, 3);
        // the update is the mean of equal pieces, so its norm is at most their mean norm (before clipping to 0.5)
        expect(a.gradientNorms!.bigSquaredNorm).toBeLessThan(
          (a.gradientNorms!.smallSquaredNorms[0]! + a.gradientNorms!.smallSquaredNorms[1]!) / 2,
        );
        // one piece: its mean gradient is the update
        expect(w.gradientNorms!.smallSquaredNorms[0]! / w.gradientNorms!.bigSquaredNorm).toBeCloseTo(1, 5);
        expect(b.memoryBytes).toBeGreaterThan(2 ** 20);
      }
    } finally {
      single.dispose();
      whole.dispose();
      parallel.dispose();
    }
  }, 60_000);

  it('given the native kernels unavailable (MAOU_CPU_KERNELS=wasm), then the replicas train on the WebAssembly ones, losses as with native', async () => {
    // The main thread's choice travels to the replicas, so what the report names is what every replica runs.
    const losses = async (setting: 'auto' | 'wasm'): Promise<number[]> => {
      useCpuKernels(setting);
      const parallel = new DataParallelTrainer(options, 2);
      try {
        const out: number[] = [];
        for (let i = 0; i < 3; i++) out.push((await parallel.step(randomBatch(3, 12, 200 + i), clock)).loss);
        return out;
      } finally {
        parallel.dispose();
      }
    };
    try {
      const [fallback, native] = [await losses('wasm'), await losses('auto')];
      fallback.forEach((l, i) => expect(l).toBeCloseTo(native[i]!, 3));
      // Not bit-equal: the native kernels round differently (FMA, other summation order), so the replicas did switch.
      expect(fallback).not.toEqual(native);
    } finally {
      useCpuKernels('auto');
    }
  }, 120_000);

  it('given 2 accumulation steps, then two replicas report the batch’s own loss, as one trainer without accumulation', async () => {
    const single = createTrainer({ ...options, microBatchSize: 6 });
    const accumulating = { ...options, training: { ...options.training, gradientAccumulationSteps: 2 } };
    const parallel = new DataParallelTrainer(accumulating, 2);
    try {
      const batch = randomBatch(3, 12, 60);
      const [a, b] = [await single.step(batch, clock), await parallel.step(batch, clock)];
      expect(b.accumulation).toEqual({ steps: 2, optimizerStep: false });
      expect(b.loss).toBeCloseTo(a.loss, 4);
    } finally {
      single.dispose();
      parallel.dispose();
    }
  }, 120_000);

  it('given a batch with fewer rows than replicas, then the empty replica still joins the update and evaluation', async () => {
    const parallel = new DataParallelTrainer(options, 2);
    try {
      const r = await parallel.step(randomBatch(3, 1, 3), clock);
      expect(Number.isFinite(r.loss)).toBe(true);
      const e = await parallel.evaluate(randomBatch(3, 1, 4), clock);
      expect(Number.isFinite(e.loss)).toBe(true);
    } finally {
      parallel.dispose();
    }
  }, 120_000);

  it('given a 1-row batch on 2 replicas, then batch-norm running statistics come from the replica that saw the row', async () => {
    // Evaluation normalises with the running statistics: they must equal one trainer's after the same step.
    const sgd: TrainerOptions = {
      ...options,
      training: { ...options.training, optimizer: 'sgd', learningRate: 0.1, gradientClip: 0 },
    };
    const single = createTrainer(sgd);
    const parallel = new DataParallelTrainer(sgd, 2);
    try {
      const row = randomBatch(3, 1, 21);
      await single.step(row, clock);
      await parallel.step(row, clock);
      const probe = randomBatch(3, 6, 22);
      expect((await parallel.evaluate(probe, clock)).loss).toBeCloseTo((await single.evaluate(probe, clock)).loss, 4);
    } finally {
      single.dispose();
      parallel.dispose();
    }
  }, 120_000);

  it("given evaluations between steps, then the learning rate is still the schedule's, and an empty batch is refused", async () => {
    const single = createTrainer(options);
    const parallel = new DataParallelTrainer(options, 2);
    try {
      expect(parallel.currentLearningRate()).toBe(single.currentLearningRate());
      for (let i = 0; i < 3; i++) {
        const batch = randomBatch(3, 4, 30 + i);
        await single.step(batch, clock);
        await parallel.step(batch, clock);
      }
      await parallel.evaluate(randomBatch(3, 4, 40), clock);
      expect(parallel.currentLearningRate()).toBeCloseTo(single.currentLearningRate(), 12);
      await expect(parallel.evaluate(randomBatch(3, 0, 41), clock)).rejects.toThrow(/evaluate: the batch has no rows/);
    } finally {
      single.dispose();
      parallel.dispose();
    }
  }, 120_000);

  it('given dispose while starting or stepping, then whatever awaits the trainer is rejected, not left hanging', async () => {
    const starting = new DataParallelTrainer(options, 2);
    const ready = starting.ready();
    starting.dispose();
    await expect(ready).rejects.toThrow(/disposed/);
    const stepping = new DataParallelTrainer(options, 2);
    await stepping.ready();
    const step = stepping.step(randomBatch(3, 8, 50), clock);
    stepping.dispose();
    await expect(step).rejects.toThrow(/disposed/);
  }, 120_000);

  it("given a profiled step, then it returns the kernels of replica 0 by phase and that replica's peak of live tensor bytes", async () => {
    const parallel = new DataParallelTrainer(options, 2);
    try {
      const { result, phases, peakBytes } = await parallel.profiledStep(randomBatch(3, 4, 5), clock, 3);
      // Every weight is a live float32 tensor throughout the step, so the peak holds at least them.
      expect(peakBytes).toBeGreaterThan(4 * parallel.parameterCount);
      expect(Number.isFinite(result.loss)).toBe(true);
      expect(new Set(phases.map((p) => p.phase))).toEqual(
        new Set(['hostToDevice', 'forward', 'loss', 'backward', 'optimizer']),
      );
      expect(phases.every((p) => p.batch === 3)).toBe(true);
      expect(phases.flatMap((p) => p.kernels.map((k) => k.name))).toContain('Conv2D');
    } finally {
      parallel.dispose();
    }
  }, 120_000);

  it('given --detect-anomaly and a NaN input, then the step fails with the batch and tensor, and so does every later call', async () => {
    const parallel = new DataParallelTrainer({ ...options, training: { ...options.training, detectAnomaly: true } }, 2);
    try {
      const bad = randomBatch(3, 4, 6);
      bad.hands.fill(Number.NaN);
      const failed = parallel.step(bad, clock);
      await expect(failed).rejects.toBeInstanceOf(NonFiniteValueError);
      await expect(failed).rejects.toThrow(/non-finite value in loss at batch 0/);
      await expect(parallel.step(randomBatch(3, 4, 7), clock)).rejects.toThrow(/non-finite value in loss/);
    } finally {
      parallel.dispose();
    }
  }, 120_000);

  it('given an option the replicas cannot build, then ready() rejects with the replica and its message', async () => {
    const parallel = new DataParallelTrainer(
      { ...options, training: { ...options.training, preset: 'huge' as never } },
      2,
    );
    try {
      await expect(parallel.ready()).rejects.toThrow(/data-parallel replica \d: unknown network preset 'huge'/);
    } finally {
      parallel.dispose();
    }
  }, 120_000);

  it('given the activated backend, then the registry factory goes data-parallel only for the plug-in whose trainer is (wasm) with more than one thread', () => {
    const made: string[] = [];
    const factory = createBackendRegistry().trainerFactory((o) => {
      made.push(o.backend?.name ?? 'none');
      return createTrainer(o);
    });
    for (const backend of [
      wasmInfo(1),
      { ...wasmInfo(4), name: 'cpu' },
      { ...wasmInfo(4), name: 'unregistered' },
      undefined,
    ])
      factory({ ...options, backend }).dispose();
    expect(made).toEqual(['wasm', 'cpu', 'unregistered', 'none']);
    const parallel = factory({ ...options, backend: wasmInfo(3) });
    expect(parallel).toBeInstanceOf(DataParallelTrainer);
    expect((parallel as DataParallelTrainer).replicas).toBe(3);
    parallel.dispose();
  });
});
