import 'reflect-metadata';
import '@tensorflow/tfjs-backend-cpu';
import type { HostBatch, Stage3Columns } from '@maou/bench-domain';
import { RESIDUAL_FALL, RUN_TO_RUN_SPREAD } from '@maou/bench-domain';
import { planResources, usableResources } from '@maou/bench-domain';
import {
  FakeClock,
  FakeLoaderFactory,
  MemoryCalibrationStore,
  MemoryLogger,
  RecordingProgress,
  testBenchmarkConfig,
  trainingUseCaseOver,
} from '../../testing';
import { CalibrateLoaderUseCase } from '../calibrate-loader/calibrate-loader.use-case';
import type { Trainer } from '@maou/bench-engine';
import type { DataLoaderPort } from '../../ports/data-loader.port';
import type { DataSourcePort, ShardRef } from '../../ports/data-source.port';

// Edges faked: a loader of N batches whose data wait and a trainer whose phases advance a fake clock.
const batch = (size: number): HostBatch => ({
  stage: 3,
  size,
  boardIds: new Int32Array(size * 81),
  hands: new Float32Array(size * 14),
  targets: { stage: 3, moveLabel: new Float32Array(size * 1496), resultValue: new Float32Array(size) },
});

const setup = (opts: {
  batches: number;
  waitMs: number;
  stepMs: (i: number) => number;
  shards?: ShardRef[];
  othersShare?: (i: number) => number;
  shardsFault?: Error;
  store?: MemoryCalibrationStore;
  calibrator?: CalibrateLoaderUseCase;
  /** a streaming loader: a read of `readMs` before each file's first batch, the consumer waiting for what `lead`
   * batches of `leadMs` do not cover */
  files?: { batchesPerFile: number; readMs: number; lead: number; leadMs: number };
}) => {
  const clock = new FakeClock();
  // CPU counters that follow the fake clock: this process keeps both cores busy; others take `othersShare` of them.
  let cpu = { processMs: 0, busyMs: 0, stealMs: 0, cores: 2, lastMs: 0 };
  const cpuCounters = () => {
    if (!opts.othersShare) return null;
    const dt = clock.now() - cpu.lastMs;
    const others = 2 * dt * opts.othersShare(step);
    cpu = { ...cpu, processMs: cpu.processMs + 2 * dt - others, busyMs: cpu.busyMs + 2 * dt, lastMs: clock.now() };
    return cpu;
  };
  let step = 0;
  const trainer: Trainer = {
    stage: 3,
    parameterCount: 1_912_505,
    multiplyAddsPerSample: 11_519_872,
    async step() {
      const ms = opts.stepMs(step++);
      clock.advance(ms);
      return {
        loss: 5 - step * 0.01,
        numTensors: 10,
        phasesMs: {
          hostToDevice: ms * 0.1,
          forward: ms * 0.3,
          loss: ms * 0.1,
          backward: ms * 0.4,
          optimizer: ms * 0.05,
        },
      };
    },
    async evaluate() {
      clock.advance(5);
      return { loss: 4, metrics: { policy_top1: 0.25 }, phasesMs: { hostToDevice: 1, forward: 3, loss: 1 } };
    },
    currentLearningRate: () => 0.01,
    dispose: () => undefined,
  };
  const loader: DataLoaderPort = {
    batchesPerEpoch: { train: opts.batches, validation: 3 },
    samplesPerEpoch: { train: opts.batches * 8, validation: 24 },
    describe: () => ({ mode: 'fake' }),
    async *iterate(split) {
      const n = split === 'train' ? opts.batches : 3;
      const f = split === 'train' ? opts.files : undefined;
      for (let i = 0; i < n; i++) {
        clock.advance(opts.waitMs);
        if (f && i % f.batchesPerFile === 0) {
          clock.advance(i === 0 ? f.readMs : Math.max(0, f.readMs - f.lead * f.leadMs));
          yield { ...batch(8), opened: { files: 1, readMs: f.readMs } };
        } else yield batch(8);
      }
    },
    ...(opts.files
      ? {
          fileBoundaries: () => ({
            readsPerEpoch: Math.ceil(opts.batches / opts.files!.batchesPerFile),
            leadBatches: opts.files!.lead,
            besideStep: true,
          }),
        }
      : {}),
    close: async () => undefined,
  };
  const source: DataSourcePort = {
    stage: 3,
    describe: () => 'fake',
    shards: async () => {
      if (opts.shardsFault) throw opts.shardsFault;
      return opts.shards ?? [{ id: 'a.feather', path: 'a.feather', rows: 1000, bytes: 1 }];
    },
    read: async () => ({}) as Stage3Columns,
    ioStats: () => null,
  };
  const useCase = trainingUseCaseOver({
    clock,
    backend: { name: 'cpu', version: '4.22.0', threads: 1, device: 'cpu', notes: [] },
    source,
    loader,
    createTrainer: () => trainer,
    cpuCounters,
    store: opts.store,
    calibrator: opts.calibrator,
  });
  return useCase;
};

const config = testBenchmarkConfig;

describe('BenchmarkTrainingUseCase', () => {
  it('given a slow first batch, then warm-up is excluded from throughput and the phases tile each batch', async () => {
    const r = await setup({ batches: 50, waitMs: 10, stepMs: (i) => (i === 0 ? 1000 : 90) }).execute({
      config: config(),
    });
    if (!r.ok) throw new Error(r.error.message);
    const { report } = r.value;
    const m = report.training_metrics;
    expect(m.total_batches).toBe(10);
    expect(m.measured_batches).toBe(8);
    expect(m.batch_ms.mean).toBeCloseTo(100, 9);
    expect(m.samples_per_second).toBeCloseTo(80, 9);
    expect(m.phase_share.dataWait).toBeCloseTo(0.1, 9);
    for (const b of report.batches) expect(Object.values(b.phases).reduce((a, x) => a + x, 0)).toBeCloseTo(b.wallMs, 9);
    // the batches to come count the residual fall full epochs still had (RESIDUAL_FALL)
    expect(report.epoch_estimate.predicted_ms).toBeCloseTo(1010 + 9 * 100 + 40 * 100 * (1 - RESIDUAL_FALL), 6);
    expect(report.model.parameters).toBe(1_912_505);
  });

  it('given a capped run, then the prediction matches a full-epoch run of the same steady process', async () => {
    const step = (i: number): number => (i < 3 ? 400 : 100);
    const capped = await setup({ batches: 60, waitMs: 0, stepMs: step }).execute({
      config: config({ maxBatches: 20, warmupBatches: 3 }),
    });
    const full = await setup({ batches: 60, waitMs: 0, stepMs: step }).execute({
      config: config({ maxBatches: null, warmupBatches: 3 }),
    });
    if (!capped.ok || !full.ok) throw new Error('expected ok');
    const actual = full.value.report.batches.reduce((a, b) => a + b.wallMs, 0);
    // a steady process has no residual fall: the prediction is that much under, and the interval still covers it
    const e = capped.value.report.epoch_estimate;
    expect(e.predicted_ms).toBeCloseTo(actual - RESIDUAL_FALL * 100 * 40, 6);
    expect(actual).toBeGreaterThanOrEqual(e.predicted_ms_ci95[0]);
    expect(actual).toBeLessThanOrEqual(e.predicted_ms_ci95[1]);
  });

  it('given a streaming loader whose files outlast the look, then each boundary ahead counts the read less what was ready', async () => {
    const step = (i: number): number => (i < 3 ? 400 : 100);
    const files = { batchesPerFile: 100, readMs: 900, lead: 2, leadMs: 100 };
    const capped = await setup({ batches: 400, waitMs: 0, stepMs: step, files }).execute({
      config: config({ maxBatches: 30, warmupBatches: 3 }),
    });
    const full = await setup({ batches: 400, waitMs: 0, stepMs: step, files }).execute({
      config: config({ maxBatches: null, warmupBatches: 3 }),
    });
    if (!capped.ok || !full.ok) throw new Error('expected ok');
    const report = capped.value.report;
    expect(report.batches[0]!.fileOpen).toEqual({ files: 1, readMs: 900 });
    const e = report.epoch_estimate;
    expect(e.file_boundaries).toEqual({
      reads_per_epoch: 4,
      lead_batches: 2,
      beside_step: true,
      reads_seen: 1,
      ahead: 3,
      stall_ms: 700,
      source: 'read-time',
      observed: 0,
      read_ms: 900,
    });
    expect(e.method).toMatch(/\+ 3 file boundaries ahead × 700 ms/);
    // the three boundaries ahead are in the point; only the steady process's missing fall separates it from the truth
    const actual = full.value.report.batches.reduce((a, b) => a + b.wallMs, 0);
    expect(e.predicted_ms).toBeCloseTo(actual - RESIDUAL_FALL * 100 * 370, 6);
    expect(full.value.report.epoch_estimate.file_boundaries).toMatchObject({
      source: 'observed',
      observed: 3,
      ahead: 0,
    });
  });

  it('given --run-validation, then an inference pass is reported with its own metrics', async () => {
    const r = await setup({ batches: 20, waitMs: 0, stepMs: () => 50 }).execute({
      config: config({ runValidation: true }),
    });
    if (!r.ok) throw new Error(r.error.message);
    const v = r.value.report.validation_metrics!;
    expect(v).toMatchObject({ batches: 3, samples: 24, loss: 4, metrics: { policy_top1: 0.25 } });
    // evaluate advances the clock 5 ms and reports 1 + 3 + 1 ms of upload, forward and loss: the rest is other
    expect([
      v.phase_ms.hostToDevice.mean,
      v.phase_ms.forward.mean,
      v.phase_ms.loss.mean,
      v.phase_ms.backward.mean,
      v.phase_ms.other.mean,
    ]).toEqual([1, 3, 1, 0, 0]);
    expect(Object.values(v.phase_share).reduce((a, x) => a + x, 0)).toBeCloseTo(1, 12);
    expect(r.value.report.maou.validation_metrics).toMatchObject({
      forward_pass_time: 0.003,
      backward_pass_time: 0,
      data_load_method: 'map-style',
    });
  });

  it('given no validation, profiling, monitoring or sampling, then each null block carries its reason and maou, as maou, writes no validation_skipped', async () => {
    const r = await setup({ batches: 20, waitMs: 0, stepMs: () => 50 }).execute({ config: config() });
    if (!r.ok) throw new Error(r.error.message);
    const { report } = r.value;
    expect(report.null_reasons).toEqual({
      validation_metrics: '--run-validation not given',
      resources: '--enable-resource-monitoring not given',
      profile: '--enable-profiling not given',
      estimation: expect.stringMatching(/^--sample-ratio not given/),
      io: expect.stringMatching(/local source keeps no transfer statistics/),
      resource_limits: expect.stringMatching(/detected no resource limits/),
    });
    for (const [block, value] of Object.entries(report))
      if (value === null) expect(Object.keys(report.null_reasons)).toContain(block);
    // maou writes validation_skipped only when --run-validation was given
    expect(report.maou.benchmark_results.validation_skipped).toBeUndefined();
    expect(report.maou.training_metrics.total_batches).toBe(10);
  });

  it('given non-default optimiser settings, then maou configuration echoes them from the report config', async () => {
    const c = config();
    const training = {
      ...c.training,
      optimizer: 'sgd' as const,
      learningRate: 0.05,
      momentum: 0.8,
      policyLossRatio: 2,
      valueLossRatio: 0.5,
    };
    const r = await setup({ batches: 20, waitMs: 0, stepMs: () => 50 }).execute({
      config: { ...c, training, loader: { ...c.loader, prefetchFactor: 3 }, maxBatches: 12, sampleRatio: 0.5 },
    });
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.report.maou.configuration).toMatchObject({
      optimizer: 'sgd',
      learning_rate: 0.05,
      momentum: 0.8,
      policy_loss_ratio: 2,
      value_loss_ratio: 0.5,
      prefetch_factor: 3,
      max_batches: 12,
      sample_ratio: 0.5,
      enable_profiling: false,
      dataloader_workers: 0,
      pin_memory: false,
      compilation: false,
    });
  });

  it('given a source whose every file is empty, then a datasource error naming the files, not "yields 0 batch(es)" (#19)', async () => {
    const shards = ['a.npy', 'b.feather'].map((id) => ({ id, path: id, rows: 0, bytes: 128 }));
    const r = await setup({ batches: 0, waitMs: 0, stepMs: () => 50, shards }).execute({ config: config() });
    expect(r.ok ? null : r.error).toEqual({
      kind: 'datasource',
      message: 'fake holds no rows: every file is empty (a.npy, b.feather)',
    });
  });

  it('given a source that cannot list its files, then a datasource error with its message', async () => {
    const r = await setup({
      batches: 20,
      waitMs: 0,
      stepMs: () => 50,
      shardsFault: new Error('listing s3://b/p/: HTTP 404'),
    }).execute({ config: config() });
    expect(r.ok ? null : r.error).toEqual({ kind: 'datasource', message: 'listing s3://b/p/: HTTP 404' });
  });

  it('given a TypeError inside the datasource step, then it propagates as the bug it is, not as a datasource error (#14)', async () => {
    const bug = new TypeError("Cannot read properties of undefined (reading 'rows')");
    await expect(
      setup({ batches: 20, waitMs: 0, stepMs: () => 50, shardsFault: bug }).execute({ config: config() }),
    ).rejects.toBe(bug);
  });

  it('given a calibration that fails, then a calibration error, not a datasource error (#14)', async () => {
    const r = await setup({ batches: 20, waitMs: 0, stepMs: () => 50 }).execute({
      config: config(),
      calibration: { mode: 'calibrate' },
    });
    expect(r.ok ? null : r.error).toEqual({ kind: 'calibration-failed', message: 'calibration is off' });
  });

  it("given a calibration that runs out of memory at the plan's batch, then the run takes the halved batch and the plan in the report records it and calibration's workers over its own decisions", async () => {
    const clock = new FakeClock();
    // batches of more than 4 rows run out of memory; one worker is the fastest setting
    const loaders = new FakeLoaderFactory(
      clock,
      (c) => (c.workers === 1 ? 2 : 5),
      (c) => (c.batchSize > 4 ? new RangeError('Array buffer allocation failed') : null),
    );
    const calibrator = new CalibrateLoaderUseCase(
      loaders,
      new MemoryCalibrationStore(),
      clock,
      new MemoryLogger(),
      new RecordingProgress(),
    );
    const host = usableResources({ version: 'none', cpuQuotaCores: null, memoryLimitBytes: null }, 2, 16 * 2 ** 30);
    const plan = planResources(host, { batchSize: 8, workers: 0 });
    const r = await setup({ batches: 20, waitMs: 0, stepMs: () => 50, calibrator }).execute({
      config: config(),
      calibration: { mode: 'force' },
      resourceLimits: plan.report,
    });
    if (!r.ok) throw new Error(r.error.message);
    const { report } = r.value;
    expect(report.config['loader.batchSize']).toBe(4);
    expect(report.config['loader.workers']).toBe(1);
    const decided = Object.fromEntries(report.resource_limits!.decisions.map((d) => [d.setting, d]));
    expect(decided.batch_size).toEqual({
      setting: 'batch_size',
      value: 4,
      origin: 'out-of-memory',
      reason: 'the loader calibration ran out of memory at batch 8 and halved it to 4',
      replaced: { setting: 'batch_size', value: 8, origin: 'user', reason: '--batch-size given' },
    });
    expect(decided.workers).toMatchObject({ value: 1, origin: 'calibration', replaced: { value: 0, origin: 'user' } });
  });

  it('given a backend that runs one thread where the plan asked for two, then the configuration and the plan in the report say 1, from the backend', async () => {
    const host = usableResources({ version: 'none', cpuQuotaCores: null, memoryLimitBytes: null }, 2, 16 * 2 ** 30);
    const plan = planResources(host, { batchSize: 8, workers: 0 });
    const r = await setup({ batches: 20, waitMs: 0, stepMs: () => 50 }).execute({
      config: config({ compute: { backend: 'cpu', deviceIndex: 0, threads: plan.threads } }),
      resourceLimits: plan.report,
    });
    if (!r.ok) throw new Error(r.error.message);
    const { report } = r.value;
    expect(plan.threads).toBe(2);
    expect(report.environment.threads).toBe(1);
    expect(report.config['compute.threads']).toBe(1);
    expect(report.resource_limits!.decisions.find((d) => d.setting === 'threads')).toEqual({
      setting: 'threads',
      value: 1,
      origin: 'backend',
      reason: 'the cpu backend runs 1 thread(s) (asked for 2)',
      replaced: plan.report.decisions[0],
    });
  });

  it('given a stop request after 5 of 10 batches, then the report covers those 5 and is marked interrupted (#19)', async () => {
    const stop = { aborted: false, reason: 'SIGTERM' };
    const r = await setup({ batches: 50, waitMs: 0, stepMs: () => 50 }).execute({
      config: config({ runValidation: true }),
      stop,
      onBatch: (t) => {
        if (t.index === 4) stop.aborted = true;
      },
    });
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.report).toMatchObject({
      interrupted: true,
      interruption: { reason: 'SIGTERM', completed_batches: 5, planned_batches: 10 },
      validation_metrics: null,
    });
    expect(r.value.report.batches).toHaveLength(5);
  });

  it('given a stop request inside the warm-up, then the warm-up shrinks to leave two measured batches and the estimate is finite', async () => {
    const stop = { aborted: false, reason: 'SIGINT' };
    const r = await setup({ batches: 50, waitMs: 0, stepMs: () => 50 }).execute({
      config: config({ warmupBatches: 6 }),
      stop,
      onBatch: (t) => {
        if (t.index === 3) stop.aborted = true;
      },
    });
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.report.batches).toHaveLength(4);
    expect(r.value.report.batches.filter((b) => !b.warmup)).toHaveLength(2);
    expect(Number.isFinite(r.value.report.epoch_estimate!.predicted_ms)).toBe(true);
  });

  it('given a stop request after the first batch, then a typed interrupted error saying how far it got', async () => {
    const stop = { aborted: false, reason: 'SIGINT' };
    const r = await setup({ batches: 50, waitMs: 0, stepMs: () => 50 }).execute({
      config: config(),
      stop,
      onBatch: () => {
        stop.aborted = true;
      },
    });
    expect(r.ok ? null : r.error).toEqual({
      kind: 'interrupted',
      message: 'interrupted after 1 of 10 batches (SIGINT)',
      interruption: { reason: 'SIGINT', completed_batches: 1, planned_batches: 10 },
    });
  });

  it('given a loader of one batch, then a typed too-few-batches error', async () => {
    const r = await setup({ batches: 1, waitMs: 0, stepMs: () => 50 }).execute({ config: config() });
    expect(r.ok).toBe(false);
    if (!r.ok)
      expect(r.error).toMatchObject({ kind: 'too-few-batches', message: expect.stringMatching(/--batch-size/) });
  });

  it('given a sample ratio on a cloud source, then the estimation scales batches, not the warm-up', async () => {
    const cloud = {
      kind: 's3',
      label: 'S3',
      sampled: true,
      streamable: false,
      bucket: 'b',
      prefix: 'p',
      dataName: 'd',
      localCacheDir: '/c',
      maxWorkers: 1,
      enableBundling: false,
      bundleSizeGb: 1,
      seed: 1,
    };
    const r = await setup({ batches: 30, waitMs: 0, stepMs: () => 100 }).execute({
      config: config({ source: cloud, sampleRatio: 0.5 }),
    });
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.report.estimation?.full_samples_per_epoch).toBe(480);
    expect(r.value.report.estimation?.full_epoch_ms).toBeCloseTo(10 * 100 + 50 * 100 * (1 - RESIDUAL_FALL), 6);
  });

  describe('stopping rule', () => {
    const rule = { targetPrecision: 0.05, timeBudgetMs: 60_000 };
    const jitter = (i: number): number => (i < 2 ? 400 : 100 + ((i * 7) % 5) - 2);

    it('given steady batches, then it stops before the cap once the interval is within the target, and says when', async () => {
      const r = await setup({ batches: 1000, waitMs: 0, stepMs: jitter }).execute({
        config: config({ maxBatches: 500, stopping: rule }),
      });
      if (!r.ok) throw new Error(r.error.message);
      const e = r.value.report.epoch_estimate;
      expect(e.stopping).toMatchObject({ reason: 'precision-reached', target_precision: 0.05 });
      expect(e.stopping!.batches).toBeLessThan(500);
      expect(e.stopping!.time_to_answer_ms).toBeCloseTo(
        r.value.report.batches.reduce((s, b) => s + b.wallMs, 0),
        6,
      );
      expect(e.half_width_fraction).toBeLessThanOrEqual(0.05);
      expect(r.value.report.config.target_precision).toBe(0.05);
    });

    it('given a budget too short for the target, then it stops at the budget and says the answer is less precise', async () => {
      const r = await setup({
        batches: 1000,
        waitMs: 0,
        stepMs: (i) => (i % 2 ? 50 : 150) * (1 + (i % 7) / 3),
      }).execute({ config: config({ maxBatches: 500, stopping: { targetPrecision: 0.01, timeBudgetMs: 3000 } }) });
      if (!r.ok) throw new Error(r.error.message);
      const e = r.value.report.epoch_estimate;
      expect(e.stopping?.reason).toBe('time-budget');
      expect(e.stopping!.time_to_answer_ms).toBeGreaterThanOrEqual(3000);
      expect(e.notes?.join(' ')).toMatch(/time budget \(3 s\) ran out/);
    });

    // noisy enough that 100 batches do not reach ±5 %, steady enough that the rule gets there well within the budget
    const noisy = (i: number): number => (i < 2 ? 400 : 100 * (1 + 0.6 * Math.sin(i * 12.9898) ** 2));

    it("given no --max-batches, then the stopping rule decides past maou's 100, and the maou block keeps 100", async () => {
      const r = await setup({ batches: 5000, waitMs: 0, stepMs: noisy }).execute({
        config: config({ maxBatches: 100, stopping: { ...rule, capGiven: false } }),
      });
      if (!r.ok) throw new Error(r.error.message);
      const { report } = r.value;
      expect(report.epoch_estimate.stopping).toMatchObject({ reason: 'precision-reached' });
      expect(report.epoch_estimate.stopping!.batches).toBeGreaterThan(100);
      expect(report.epoch_estimate.half_width_fraction).toBeLessThanOrEqual(0.05);
      expect(report.maou.training_metrics.total_batches).toBe(100);
      expect(report.config.max_batches_given).toBe(false);
    });

    it('given a typed --max-batches that comes first, then the answer says what the cap cost', async () => {
      const r = await setup({ batches: 5000, waitMs: 0, stepMs: noisy }).execute({
        config: config({ maxBatches: 100, stopping: { ...rule, capGiven: true } }),
      });
      if (!r.ok) throw new Error(r.error.message);
      const e = r.value.report.epoch_estimate;
      expect(e.stopping).toMatchObject({ reason: 'max-batches', batches: 100 });
      expect(e.notes?.join(' ')).toContain(
        `it cost precision, ±${(e.half_width_fraction! * 100).toFixed(1)} % instead; without --max-batches the stopping rule decides`,
      );
    });

    it('given other processes busy for a stretch of the run, then those batches are flagged and left out of the mean', async () => {
      const slowWhenBusy = (i: number): number => (i >= 30 && i < 40 ? 300 : jitter(i));
      const r = await setup({
        batches: 200,
        waitMs: 0,
        stepMs: slowWhenBusy,
        othersShare: (i) => (i >= 30 && i < 40 ? 0.6 : 0),
      }).execute({ config: config({ maxBatches: 60, stopping: { targetPrecision: 0, timeBudgetMs: 60_000 } }) });
      if (!r.ok) throw new Error(r.error.message);
      const { report } = r.value;
      const flagged = report.batches.filter((b) => b.disturbed).map((b) => b.index);
      expect(flagged).toEqual(expect.arrayContaining([31, 35, 38]));
      expect(flagged).not.toContain(10);
      expect(report.epoch_estimate.excluded_disturbed_batches).toBeGreaterThanOrEqual(8);
      expect(report.epoch_estimate.contention).toMatchObject({ measured: true });
      expect(report.epoch_estimate.predicted_ms / 200).toBeLessThan(130);
      expect(report.epoch_estimate.notes?.join(' ')).toMatch(/left out of the mean/);
    });
  });

  describe("the machine's record (wander and fall), kept between runs", () => {
    // ±10 % every 5 s of fake time: what a noisy VM does to 100 ms batches
    const wandering = (i: number): number => (i < 2 ? 400 : 100 * (Math.floor(i / 50) % 2 ? 1.1 : 0.9));
    const rule = { targetPrecision: 0.05, timeBudgetMs: 60_000, capGiven: false };

    it('given no record, then the run assumes the spread, and leaves a record the next run sizes its interval by', async () => {
      const store = new MemoryCalibrationStore();
      const first = await setup({ batches: 3000, waitMs: 0, stepMs: wandering, store }).execute({
        config: config({ maxBatches: 1000 }),
      });
      if (!first.ok) throw new Error(first.error.message);
      expect(first.value.report.epoch_estimate.run_to_run).toEqual({
        fraction: RUN_TO_RUN_SPREAD,
        source: 'assumed',
        window_s: null,
        runs: 0,
      });
      expect([...store.entries.keys()]).toEqual([
        expect.stringMatching(/^machine-wander \{"cpus":2,.*"backend":"cpu"/),
      ]);

      const look = { batches: 3000, waitMs: 0, stepMs: wandering };
      const second = await setup({ ...look, store }).execute({ config: config({ maxBatches: 60 }) });
      const fresh = await setup(look).execute({ config: config({ maxBatches: 60 }) });
      if (!second.ok || !fresh.ok) throw new Error('expected ok');
      const e = second.value.report.epoch_estimate;
      expect(e.run_to_run).toMatchObject({ source: 'machine', window_s: 2, runs: 1 });
      expect(e.run_to_run!.fraction).toBeGreaterThan(0.1);
      expect(e.predicted_ms).toBe(fresh.value.report.epoch_estimate.predicted_ms);
      expect(e.half_width_fraction!).toBeGreaterThan(fresh.value.report.epoch_estimate.half_width_fraction! + 0.02);
      expect(e.method).toContain("this machine's wander over 2 s windows in its last 1 runs");
      expect(e.notes?.join(' ')).toMatch(/this machine's speed over 2 s windows strayed ±\d+\.\d %/);
    });

    it('given three runs whose batches slowed after their first 150, then the next short look is projected with that rise', async () => {
      const rising = (i: number): number => (i < 2 ? 400 : i < 150 ? 100 : 110);
      const store = new MemoryCalibrationStore();
      for (let k = 0; k < 3; k++)
        await setup({ batches: 3000, waitMs: 0, stepMs: rising, store }).execute({
          config: config({ maxBatches: 3000 }),
        });
      const look = { batches: 3000, waitMs: 0, stepMs: rising };
      const judged = await setup({ ...look, store }).execute({ config: config({ maxBatches: 100 }) });
      const fresh = await setup(look).execute({ config: config({ maxBatches: 100 }) });
      if (!judged.ok || !fresh.ok) throw new Error('expected ok');
      const [e, plain] = [judged.value.report.epoch_estimate, fresh.value.report.epoch_estimate];
      expect(plain.residual_fall).toEqual({ fraction: RESIDUAL_FALL, source: 'assumed', after_batches: null, runs: 0 });
      expect(e.residual_fall).toMatchObject({ source: 'machine', after_batches: 100, runs: 2.7 });
      // the rest ran (50 × 100 + 2,850 × 110) ÷ 2,900 ≈ 109.8 ms against the look's 100: 9.8 % slower
      expect(e.residual_fall!.fraction).toBeCloseTo(-0.098, 2);
      const actual = 2 * 400 + 148 * 100 + 2850 * 110;
      expect(Math.abs(e.predicted_ms / actual - 1)).toBeLessThan(0.01);
      expect(plain.predicted_ms / actual - 1).toBeLessThan(-0.1);
      expect(e.method).toContain(
        "9.8 % slower (what the rest of this machine's last 2.7 runs did after a look of 100 batches, drawn toward the assumed 2.5 % as far as they disagreed)",
      );
    });

    it('given a record wider than the target, then the default run says the target cannot be reached here, and why', async () => {
      // ±10 % every 20 s: even the look's 20 s windows stray that far
      const slow = (i: number): number => (i < 2 ? 400 : 100 * (Math.floor(i / 200) % 2 ? 1.1 : 0.9));
      const store = new MemoryCalibrationStore();
      await setup({ batches: 3000, waitMs: 0, stepMs: slow, store }).execute({ config: config({ maxBatches: 2000 }) });
      const r = await setup({ batches: 3000, waitMs: 0, stepMs: slow, store }).execute({
        config: config({ maxBatches: 100, stopping: { ...rule, timeBudgetMs: 20_000 } }),
      });
      if (!r.ok) throw new Error(r.error.message);
      const e = r.value.report.epoch_estimate;
      expect(e.stopping?.reason).toBe('time-budget');
      expect(e.half_width_fraction!).toBeGreaterThan(0.05);
      expect(e.notes?.join(' ')).toMatch(
        /this machine's own wander \(±\d+\.\d % over \d+ s windows\) is wider than the target by itself/,
      );
    });

    it('given a stored record of another format, then the run warns, assumes the spread and replaces it', async () => {
      const store = new MemoryCalibrationStore();
      await setup({ batches: 200, waitMs: 0, stepMs: wandering, store }).execute({
        config: config({ maxBatches: 200 }),
      });
      const [key] = [...store.entries.keys()];
      store.entries.set(key!, { version: 0 });
      const r = await setup({ batches: 200, waitMs: 0, stepMs: wandering, store }).execute({
        config: config({ maxBatches: 200 }),
      });
      if (!r.ok) throw new Error(r.error.message);
      expect(r.value.report.epoch_estimate.run_to_run?.source).toBe('assumed');
      expect(store.entries.get(key!)).toMatchObject({ version: 2, wander: { runs: 1 } });
    });
  });
});
