import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-wasm';
import type { DataLoaderPort, DataSourcePort } from '@maou/bench-use-cases';
import { createTrainer, type Trainer } from '@maou/bench-engine';
import { FakeClock, trainingUseCaseOver } from '@maou/bench-use-cases/testing';
import type { BenchmarkConfig, BenchmarkTrainingReport, HostBatch, Stage3Columns } from '@maou/bench-domain';
import { randomBatch, TRAINING, fastWasmBackend } from '@maou/bench-testkit/compute';

// Device prefetch through the whole use case on real tfjs (wasm kernels; the cpu backend's conv backprop takes
// seconds per step): the real trainer, a loader of 10 tiny Stage 3 batches, the pass capped at 5 (an early stop).
const TENSORS_PER_BATCH = 4; // board ids, hands, policy target, value target
const BATCHES: HostBatch[] = Array.from({ length: 10 }, (_, i) => randomBatch(3, 4, i + 1));

const config = (devicePrefetch: number, runValidation = false): BenchmarkConfig => ({
  stage: 3,
  source: { kind: 'local', label: 'local files', sampled: false, streamable: true, reads: ['x'] },
  loader: {
    batchSize: 4,
    workers: 0,
    prefetchFactor: 2,
    pinMemory: false,
    persistentWorkers: true,
    streaming: false,
    shuffle: true,
    testRatio: 0.2,
    cacheMode: 'file',
    devicePrefetch,
    seed: 7,
  },
  training: TRAINING,
  compute: { backend: 'wasm', deviceIndex: 0, threads: 'auto' },
  warmupBatches: 1,
  maxBatches: 5,
  runValidation,
  sampleRatio: null,
  enableProfiling: false,
  enableResourceMonitoring: false,
  compilation: false,
});

/** Runs the use case with `trainerOf` wrapping the real trainer; returns the report. */
const run = async (
  cfg: BenchmarkConfig,
  opts: { microBatchSize?: number; wrap?: (t: Trainer) => Trainer } = {},
): Promise<BenchmarkTrainingReport> => {
  const loader: DataLoaderPort = {
    batchesPerEpoch: { train: BATCHES.length, validation: 3 },
    samplesPerEpoch: { train: BATCHES.length * 4, validation: 12 },
    describe: () => ({ mode: 'memory' }),
    async *iterate(split) {
      for (const b of split === 'train' ? BATCHES : BATCHES.slice(0, 3)) {
        await new Promise((r) => setImmediate(r));
        yield b;
      }
    },
    close: async () => undefined,
  };
  const source: DataSourcePort = {
    stage: 3,
    describe: () => 'memory',
    shards: async () => [{ id: 'memory', path: 'memory', rows: BATCHES.length * 4, bytes: 1 }],
    read: async () => ({}) as Stage3Columns,
    ioStats: () => null,
  };
  const useCase = trainingUseCaseOver({
    clock: new FakeClock(),
    backend: { name: 'wasm', version: '4.22.0', threads: 1, device: 'cpu', notes: [] },
    source,
    loader,
    createTrainer: (o) => (opts.wrap ?? ((t) => t))(createTrainer({ ...o, microBatchSize: opts.microBatchSize })),
  });
  const r = await useCase.execute({ config: cfg });
  if (!r.ok) throw new Error(r.error.message);
  return r.value.report;
};

describe('benchmark-training with device prefetch (wasm)', () => {
  const wasm = fastWasmBackend();
  beforeAll(wasm.setUp);
  afterAll(wasm.tearDown);

  it.each([undefined, 3])(
    'given micro-batches of %s rows, then losses and validation match the unprefetched run',
    async (microBatchSize) => {
      const plain = await run(config(0, true), { microBatchSize });
      const prefetched = await run(config(2, true), { microBatchSize });
      expect(plain.batches).toHaveLength(5);
      expect(prefetched.batches.map((b) => b.loss)).toEqual(plain.batches.map((b) => b.loss));
      expect(prefetched.validation_metrics!.loss).toBe(plain.validation_metrics!.loss);
      expect(prefetched.validation_metrics!.metrics).toEqual(plain.validation_metrics!.metrics);
      for (const b of prefetched.batches)
        expect(Object.values(b.phases).reduce((a, x) => a + x, 0)).toBeCloseTo(b.wallMs, 9);
      expect(prefetched.data_load_method.device_prefetch).toEqual({ enabled: true, buffer_size: 2 });
      expect(plain.data_load_method.device_prefetch).toEqual({ enabled: false, buffer_size: 0 });
    },
    60_000,
  );

  it('given an early stop, then live tensors stay constant across steps and nothing is left behind', async () => {
    const before = tf.memory().numTensors;
    const plain = await run(config(0), { wrap: (t) => yielding(t).trainer });
    const between = tf.memory().numTensors;
    const prefetched = await run(config(3), { wrap: (t) => yielding(t).trainer });
    const live = (r: BenchmarkTrainingReport) => new Set(r.batches.slice(1).map((b) => b.numTensors));
    const [perStep] = live(plain);
    expect(live(plain)).toEqual(new Set([perStep]));
    // after each step, the three batches uploaded ahead are the only extra tensors (on top of the first run's leftovers)
    expect(live(prefetched)).toEqual(new Set([perStep! + (between - before) + 3 * TENSORS_PER_BATCH]));
    // trainer.dispose() itself leaves some tensors behind; the prefetched run must leave no more than the plain one
    expect(tf.memory().numTensors - between).toBe(between - before);
  }, 60_000);

  it.each([1, 3])(
    'given a buffer of %i, then exactly that many batches are uploaded ahead of a step, no more',
    async (buffer) => {
      let counts: ReturnType<typeof yielding>['counts'] | undefined;
      await run(config(buffer), {
        wrap: (t) => {
          const y = yielding(t);
          counts = y.counts;
          return y.trainer;
        },
      });
      expect(counts!.steps).toBe(5);
      expect(new Set(counts!.ahead)).toEqual(new Set([buffer]));
      expect(counts!.uploads).toBe(5 + buffer);
    },
    60_000,
  );
});

/**
 * Wraps a trainer so each step first lets the event loop run (as a WebGPU step does while the device works; a wasm
 * step never yields, so its prefetch only runs between steps) and records uploads made ahead of each step.
 */
function yielding(real: Trainer): { trainer: Trainer; counts: { uploads: number; steps: number; ahead: number[] } } {
  const counts = { uploads: 0, steps: 0, ahead: [] as number[] };
  const trainer: Trainer = {
    stage: real.stage,
    parameterCount: real.parameterCount,
    multiplyAddsPerSample: real.multiplyAddsPerSample,
    upload: (b, use) => {
      counts.uploads++;
      return real.upload!(b, use);
    },
    step: async (b, c) => {
      counts.steps++;
      for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
      counts.ahead.push(counts.uploads - counts.steps);
      return real.step(b, c);
    },
    evaluate: (b, c) => real.evaluate(b, c),
    currentLearningRate: () => real.currentLearningRate(),
    dispose: () => real.dispose(),
  };
  return { trainer, counts };
}
