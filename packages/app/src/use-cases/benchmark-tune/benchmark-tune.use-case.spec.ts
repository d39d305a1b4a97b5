import 'reflect-metadata';
import {
  mulberry32,
  type BenchmarkConfig,
  type HostBatch,
  type Stage3Columns,
  type TuneChange,
} from '@maou/bench-domain';
import type { Trainer } from '@maou/bench-engine';
import { FakeClock, MemoryLogger, RecordingProgress, testBenchmarkConfig, trainingUseCaseOver } from '../../testing';
import type { DataLoaderPort } from '../../ports/data-loader.port';
import type { DataSourcePort } from '../../ports/data-source.port';
import { BenchmarkTuneUseCase } from './benchmark-tune.use-case';

// The edges faked as a 2-core machine would behave: a step takes 40 ms ÷ the backend's threads (±10 %), a batch waits
// 10 ms for the main thread to prepare it and nothing with a loader worker. Everything between is the real use cases.
const batch = (size: number): HostBatch => ({
  stage: 3,
  size,
  boardIds: new Int32Array(size * 81),
  hands: new Float32Array(size * 14),
  targets: { stage: 3, moveLabel: new Float32Array(size * 1496), resultValue: new Float32Array(size) },
});

// `memoryLoadMs`: what loading every row into memory (`--input-cache-mode memory`) costs at each loader's start
const machine = (seed: number, memoryLoadMs = 0) => {
  const clock = new FakeClock();
  const noise = mulberry32(seed);
  let threads = 1;
  const trainer = (): Trainer => ({
    stage: 3,
    parameterCount: 1000,
    multiplyAddsPerSample: 1000,
    async step() {
      const ms = (40 / threads) * (0.9 + 0.2 * noise());
      clock.advance(ms);
      return {
        loss: 5,
        numTensors: 10,
        phasesMs: { hostToDevice: 0, forward: ms * 0.4, loss: 0, backward: ms * 0.5, optimizer: ms * 0.1 },
      };
    },
    async evaluate() {
      return { loss: 4, metrics: {}, phasesMs: { hostToDevice: 0, forward: 1, loss: 0 } };
    },
    currentLearningRate: () => 0.01,
    dispose: () => undefined,
  });
  const loader = (workers: number): DataLoaderPort => ({
    batchesPerEpoch: { train: 100_000, validation: 3 },
    samplesPerEpoch: { train: 800_000, validation: 24 },
    describe: () => ({ mode: 'fake', shards: 1 }),
    async *iterate() {
      for (;;) {
        if (workers === 0) clock.advance(10);
        yield batch(8);
      }
    },
    close: async () => undefined,
  });
  const source: DataSourcePort = {
    stage: 3,
    describe: () => 'fake',
    shards: async () => [{ id: 'a.feather', path: 'a.feather', rows: 1000, bytes: 1 }],
    read: async () => ({}) as Stage3Columns,
    ioStats: () => null,
  };
  const training = trainingUseCaseOver({
    clock,
    backend: { name: 'wasm', version: '4.22.0', threads: 1, device: 'cpu', notes: [] },
    activate: (compute) => {
      // a registered backend whose optional package is not installed here
      if (compute.backend === 'tensorflow') throw new Error('@tensorflow/tfjs-node is not installed');
      threads = compute.threads === 'auto' ? 2 : compute.threads;
      return { name: 'wasm', version: '4.22.0', threads, device: 'cpu', notes: [], placement: 'host' };
    },
    source,
    loader: loader(0),
    createLoader: (c) => {
      if (c.cacheMode === 'memory') clock.advance(memoryLoadMs);
      return loader(c.workers);
    },
    createTrainer: trainer,
  });
  const progress = new RecordingProgress();
  const tune = new BenchmarkTuneUseCase(
    training,
    { create: async (_s, c) => loader(c.workers) },
    trainer,
    clock,
    new MemoryLogger(),
    progress,
  );
  return { tune, progress, clock };
};

// The edges decide the speed; the configuration only says what a leg asks them for.
const config = (over: Partial<BenchmarkConfig['loader']>, threads: number): BenchmarkConfig => {
  const base = testBenchmarkConfig();
  return testBenchmarkConfig({
    loader: { ...base.loader, pinMemory: true, cacheMode: 'memory', ...over },
    compute: { backend: 'wasm', deviceIndex: 0, threads },
    warmupBatches: 3,
    maxBatches: 100,
    runValidation: true,
  });
};

const commandLine = (changes: readonly TuneChange[]) =>
  ['maou utility benchmark-training', ...changes.map((c) => `${c.flag} ${c.value}`)].join(' ');
const input = (c: BenchmarkConfig, budgetMs = 240_000) => ({
  config: c,
  allow: [],
  budgetMs,
  backends: [
    { name: 'wasm', placement: 'host' as const },
    { name: 'cpu', placement: 'host' as const, fallback: true },
  ],
  commandLine,
});

describe('BenchmarkTuneUseCase', () => {
  it('given one thread and no loader workers on 2 cores, then it finds both, verifies them together and hands back the command', async () => {
    const { tune, progress } = machine(1);
    const r = await tune.execute(input(config({ workers: 0 }, 1)));
    if (!r.ok) throw new Error(r.error.message);
    const t = r.value;
    const by = (flag: string) => t.changes.find((c) => c.flag === flag)!;
    expect(by('--threads')).toMatchObject({ value: '2', significant: true, verdict: 'faster', status: 'measured' });
    expect(by('--dataloader-workers')).toMatchObject({ value: '1', significant: true });
    // 50 → 40 ms a batch: 1.25×; 50 → 30 ms: 1.67×
    expect(by('--dataloader-workers').gain).toBeCloseTo(0.25, 1);
    expect(by('--threads').gain).toBeCloseTo(0.67, 1);
    expect(t.final.changes).toHaveLength(2);
    expect(t.final.changes).toEqual(
      expect.arrayContaining([
        { flag: '--threads', value: '2' },
        { flag: '--dataloader-workers', value: '1' },
      ]),
    );
    expect(t.final.verification).toMatchObject({ significant: true, verdict: 'faster' });
    // 50 ms → 20 ms a batch of 8
    expect(t.final.samples_per_second / t.baseline.samples_per_second).toBeCloseTo(2.5, 0);
    expect(t.final.epoch!.predicted_ms).toBeLessThan(t.baseline.epoch!.predicted_ms_ci95[0]);
    expect(t.command).toBe(commandLine(t.final.changes));
    expect(t.elapsed_s).toBeLessThanOrEqual(t.budget_s * 1.1);
    // every candidate leg sat between baseline legs; progress counted the legs with a total, so an ETA
    expect(t.changes.every((c) => c.legs.baseline >= 2 && c.legs.candidate >= 2)).toBe(true);
    expect(progress.tasks.map((x) => x.start.label)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^tune: \d+ change\(s\) against the configuration$/)]),
    );
    expect(progress.tasks.every((x) => x.start.total !== null && x.outcome === 'done')).toBe(true);
  });

  it('given the good configuration, then it claims no change and the command is the configuration as given', async () => {
    const { tune } = machine(2);
    // pinned buffers and a deeper prefetch change nothing on this machine
    const r = await tune.execute(input(config({ workers: 1, pinMemory: false }, 2), 120_000));
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.changes.map((c) => `${c.flag} ${c.value}`)).toEqual(['--prefetch-factor 4', '--pin-memory true']);
    expect(r.value.changes.filter((c) => c.significant)).toEqual([]);
    expect(r.value.final.changes).toEqual([]);
    expect(r.value.final.verification).toBeNull();
    expect(r.value.command).toBe('maou utility benchmark-training');
  });

  it('given more changes than a short budget fits at two legs a side, then it measures those with the most to gain and names the rest', async () => {
    const { tune } = machine(4);
    const r = await tune.execute(input(config({ workers: 0, pinMemory: false, cacheMode: 'file' }, 1), 40_000));
    if (!r.ok) throw new Error(r.error.message);
    const t = r.value;
    const status = Object.fromEntries(t.changes.map((c) => [`${c.flag} ${c.value}`, c.status]));
    // the step computes 80 % of a batch on one of two threads, the main thread prepares batches 20 %; no copies
    expect(status).toMatchObject({
      '--threads 2': 'measured',
      '--dataloader-workers 1': 'measured',
      '--pin-memory true': 'not tried',
    });
    const skipped = t.changes.filter((c) => c.status === 'not tried');
    expect(skipped.length).toBeGreaterThan(0);
    for (const c of skipped) {
      expect(c).toMatchObject({ verdict: 'not tried: budget', gain: null, significant: false });
      expect(c.reason).toMatch(/^\d+\.\d s were left after the probe and a leg costs .* fit at 2 legs a side/);
    }
    expect(t.changes.filter((c) => c.status === 'measured').every((c) => c.legs.candidate >= 2)).toBe(true);
    expect(t.elapsed_s).toBeLessThanOrEqual(t.budget_s + t.leg_s!);
    expect(t.notes.filter((n) => n.includes('budget'))).toEqual([]);
  });

  it('given a change whose legs start far slower than the probe did, then the rounds after its first leg count it and the tune ends within the budget and one leg', async () => {
    const { tune } = machine(6, 8_000);
    const r = await tune.execute(input(config({ workers: 0, pinMemory: false, cacheMode: 'file' }, 1), 90_000));
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.changes.find((c) => c.flag === '--input-cache-mode')).toMatchObject({ status: 'measured' });
    expect(r.value.elapsed_s).toBeLessThanOrEqual(r.value.budget_s + r.value.leg_s!);
  });

  it('given a registered backend that does not start here, then it is no candidate and the answer says why', async () => {
    const { tune } = machine(5);
    const backends = [{ name: 'tensorflow', placement: 'host' as const }, ...input(config({}, 2)).backends];
    const r = await tune.execute({ ...input(config({ workers: 1, prefetchFactor: 4 }, 2), 60_000), backends });
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.changes.map((c) => c.flag)).not.toContain('--gpu');
    expect(r.value.skipped).toContainEqual({
      flag: '--gpu',
      value: 'tensorflow',
      why: expect.stringMatching(/^it does not start here: .*@tensorflow\/tfjs-node is not installed$/),
    });
  });

  it('given a stop request mid-way, then it fails as interrupted, naming the legs it ran', async () => {
    const { tune, clock } = machine(3);
    const stop = {
      get aborted() {
        return clock.now() > 60_000;
      },
      reason: 'SIGINT',
    };
    const r = await tune.execute({ ...input(config({ workers: 0 }, 1)), stop });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.kind).toBe('interrupted');
    expect(r.error.message).toMatch(/^interrupted after \d+ leg\(s\) of the tune \(SIGINT\)/);
  });
});
