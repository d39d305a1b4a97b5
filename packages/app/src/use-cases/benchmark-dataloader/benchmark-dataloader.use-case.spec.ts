import 'reflect-metadata';
import type { DataLoaderConfig, TrainingConfig } from '@maou/bench-domain';
import type { Trainer, TrainerFactory } from '@maou/bench-engine';
import type { ComputeBackendPort } from '../../ports/compute-backend.port';
import type { DataSourceFactoryPort } from '../../ports/data-source-factory.port';
import type { DataSourcePort } from '../../ports/data-source.port';
import { FakeClock, FakeLoaderFactory, MemoryLogger } from '../../testing';
import type { BenchmarkDataloaderInput } from './benchmark-dataloader.input';
import { BenchmarkDataloaderUseCase } from './benchmark-dataloader.use-case';

const loader: DataLoaderConfig = {
  batchSize: 64,
  workers: 0,
  prefetchFactor: 2,
  pinMemory: false,
  persistentWorkers: true,
  streaming: true,
  shuffle: true,
  testRatio: 0.1,
  cacheMode: 'file',
  devicePrefetch: 3,
  seed: 1,
};
const input = (over: Partial<BenchmarkDataloaderInput> = {}): BenchmarkDataloaderInput => ({
  stage: 3,
  source: { kind: 'local', label: 'local files', sampled: false, streamable: true, reads: ['x'] },
  sampleRatio: null,
  loader,
  training: {} as TrainingConfig,
  compute: { backend: 'cpu', deviceIndex: 0, threads: 'auto' },
  workers: [0, 1, 2],
  prefetchFactors: [2, 4],
  batchSizes: [64],
  repeats: 3,
  numBatches: 10,
  warmupBatches: 1,
  noiseMargin: 0.1,
  consumptionSteps: 4,
  ...over,
});

const setup = (loaderMs: (c: DataLoaderConfig) => number, modelMsPerSample: number) => {
  const clock = new FakeClock();
  const loaders = new FakeLoaderFactory(clock, loaderMs);
  const steps: number[] = [];
  const createTrainer: TrainerFactory = () =>
    ({
      step: async (b: { size: number }) => {
        clock.advance(modelMsPerSample * b.size);
        steps.push(b.size);
        return {} as never;
      },
      dispose: () => undefined,
    }) as unknown as Trainer;
  const compute: ComputeBackendPort = {
    activate: async () => ({ name: 'cpu', version: '4.22.0', threads: 1, device: 'cpu', notes: [] }),
  };
  const sources: DataSourceFactoryPort = {
    open: async () =>
      ({
        describe: () => 'fake data',
        shards: async () => [{ id: 'a.feather', path: 'a.feather', rows: 1000, bytes: 1 }],
      }) as unknown as DataSourcePort,
  };
  const useCase = new BenchmarkDataloaderUseCase(clock, new MemoryLogger(), compute, sources, loaders, createTrainer, {
    start: () => undefined,
    stop: async () => [],
    cpuCounters: () => null,
  });
  return { useCase, loaders, steps };
};

describe('BenchmarkDataloaderUseCase', () => {
  it('given a model at 6,400 samples/s, when the grid is measured, then the cheapest point that keeps it fed with margin wins', async () => {
    // 0 workers: 64 / 20 ms = 3,200/s; 1 worker: 64 / 8 ms = 8,000/s (fed); 2 workers: 16,000/s (faster, but costlier)
    const { useCase, steps } = setup((c) => (({ 0: 20, 1: 8, 2: 4 }) as Record<number, number>)[c.workers]!, 1 / 6.4);
    const r = await useCase.execute(input());
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.points).toHaveLength(5);
    expect(r.value.consumption[64]).toBeCloseTo(6400, 0);
    expect(r.value.recommended).toMatchObject({
      workers: 1,
      prefetchFactor: 2,
      basis: 'fed',
      flags: ['--batch-size 64', '--dataloader-workers 1', '--prefetch-factor 2'],
    });
    expect(r.value.points[0]!.samplesPerSecond.runs).toHaveLength(3);
    expect(r.value.points[0]).toMatchObject({ workers: 0, prefetchFactor: null, keepsModelFed: false });
    // maou's time_taken: 3 repeats of 10 timed batches at 20 ms, the warm-up batch left out
    expect(r.value.points[0]).toMatchObject({ timedMs: 600, timedBatches: 30 });
    expect(r.value.onGpu).toBe(false);
    expect(steps).toHaveLength(2 + 4);
  });

  it('given a main-thread loader only a little faster than the model, when judged, then it does not count as feeding it', async () => {
    // 0 workers: 3,200/s against a 1,600/s model: in series it would cost a third of every step
    const { useCase } = setup((c) => (c.workers === 0 ? 20 : 8), 1 / 1.6);
    const r = await useCase.execute(input());
    expect(r.ok && r.value.points[0]!.keepsModelFed).toBe(false);
    expect(r.ok && r.value.recommended).toMatchObject({ workers: 1, basis: 'fed' });
  });

  it('given a model faster than every loader point, when measured, then the fastest point is taken and marked loader-bound', async () => {
    const { useCase } = setup((c) => 10 - c.workers - (c.prefetchFactor === 4 ? 0.5 : 0), 0.001);
    const r = await useCase.execute(input());
    expect(r.ok && r.value.recommended).toMatchObject({ workers: 2, prefetchFactor: 4, basis: 'loader-bound' });
  });

  it('given no model timing and two batch sizes, when measured, then each batch size gets the cheapest point near its fastest', async () => {
    const { useCase, steps } = setup((c) => (c.workers === 0 ? 10 : 9.8), 1);
    const r = await useCase.execute(input({ consumptionSteps: 0, batchSizes: [32, 64] }));
    if (!r.ok) throw new Error(r.error.message);
    expect(steps).toHaveLength(0);
    expect(r.value.perBatchSize.map((p) => [p.batchSize, p.workers, p.basis])).toEqual([
      [32, 0, 'no-model'],
      [64, 0, 'no-model'],
    ]);
    expect(r.value.recommended.batchSize).toBe(64);
  });
});
