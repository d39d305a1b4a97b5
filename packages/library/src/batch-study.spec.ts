import 'reflect-metadata';
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  BatchStudyUseCase,
  BenchmarkTrainingUseCase,
  TOKENS,
  type ClockPort,
  type ResourceMonitorPort,
} from '@maou/bench-use-cases';
import { planResources, usableResources } from '@maou/bench-domain';
import type { BatchStudyReport, BenchmarkConfig, BenchmarkTrainingReport, SweepPointOk } from '@maou/bench-domain';
import { givenSettings, toBenchmarkConfig } from '@maou/bench-interface';
import { plannedSettings } from '@maou/bench-use-cases/testing';
import { shippedPlugIns } from './plug-ins';

const PLUG_INS = shippedPlugIns();
const defaults = () => ({
  workers: 0,
  batchSize: 256,
  cache: { dir: join(dir, 'sample'), origin: 'the sample cache' },
  sources: PLUG_INS.sources.choices(),
  backends: PLUG_INS.backends.byPriority(),
});
// The embedded sample's own flag (its plug-in's), beside the typed table's.
const SAMPLE = { samplePositions: 512 } as Readonly<Record<string, unknown>>;
import { createContainer } from './composition-root';
import { registerCalibration } from './register-calibration';

// The batch study on the embedded sample data, wired by the real composition root: wasm with two data-parallel
// replicas, the real loader and trainer. Small batches and few of them, so the spec stays cheap.
const dir = mkdtempSync(join(tmpdir(), 'maou-study-'));
const container = () => {
  const c = createContainer({ logLevel: 'silent' });
  registerCalibration(c, join(dir, 'calibration.json'));
  return c;
};
type Over = { batchSize?: number; learningRatio?: number; modelArchitecture?: string } & Record<string, unknown>;
const config = (over: Over = {}): BenchmarkConfig => {
  const raw = {
    ...SAMPLE,
    batchSize: 8,
    maxBatches: 8,
    warmupBatches: 2,
    gpu: 'wasm',
    threads: 2,
    dataloaderWorkers: 0,
    modelArchitecture: 'lite',
    ...over,
  };
  const v = toBenchmarkConfig(raw, { ...defaults(), ...plannedSettings(givenSettings(raw)) });
  if (!v.ok) throw new Error(JSON.stringify(v.error));
  return v.value.config;
};
const single = async (cfg: BenchmarkConfig): Promise<BenchmarkTrainingReport> => {
  const r = await container().resolve(BenchmarkTrainingUseCase).execute({ config: cfg });
  if (!r.ok) throw new Error(r.error.message);
  return r.value.report;
};
const okPoint = (r: BatchStudyReport, batch: number, lr?: number): SweepPointOk => {
  const p = r.sweep!.points.find((x) => x.batch_size === batch && (lr === undefined || x.learning_rate === lr));
  if (p?.status !== 'ok') throw new Error(`point ${batch}/${lr} did not run: ${JSON.stringify(p)}`);
  return p;
};
// A clock that moves 1 ms per reading: timings then depend only on the path the code takes, not on the load of the
// machine, so a sweep point that measures the way a single run does yields the single run's figures exactly.
const tickingClock = (): ClockPort => {
  let t = 0;
  return { now: () => (t += 1), wallTime: () => new Date(0) };
};
// CPU counters are real seconds while this clock is not, so contention would compare unlike things: leave it out.
const ticking = () => {
  const c = container();
  c.registerInstance(TOKENS.Clock, tickingClock());
  const monitor = c.resolve<ResourceMonitorPort>(TOKENS.ResourceMonitor);
  c.registerInstance<ResourceMonitorPort>(TOKENS.ResourceMonitor, {
    start: (ms) => monitor.start(ms),
    stop: () => monitor.stop(),
    cpuCounters: () => null,
  });
  return c;
};
const inside = (x: number, [lo, hi]: readonly [number, number | null]): boolean => x >= lo && (hi === null || x <= hi);

describe('batch study (embedded sample data, wasm, 2 replicas)', () => {
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('given a batch-size sweep with a size the data cannot fill, then each point matches a single run, the failed one is reported, CBS and B_simple are estimated', async () => {
    const r = await container()
      .resolve(BatchStudyUseCase)
      .execute({
        config: config(),
        sweep: { type: 'batch_size', values: [8, 16, 4096] },
        estimateCbs: true,
        findMaxBatch: true,
        maxBatchCap: 32,
      });
    if (!r.ok) throw new Error(r.error.message);
    const study = r.value;
    expect(study.sweep!.points.map((p) => [p.batch_size, p.status])).toEqual([
      [8, 'ok'],
      [16, 'ok'],
      [4096, 'failed'],
    ]);
    expect(study.sweep!.points[2]).toMatchObject({
      error_kind: 'too-few-batches',
      reason: expect.stringMatching(/--batch-size/),
    });

    for (const batch of [8, 16]) {
      const point = okPoint(study, batch);
      const alone = await single(config({ batchSize: batch }));
      // same weights, same data order, same arithmetic: the losses are the same floats
      expect(point.report.batches.map((b) => b.loss)).toEqual(alone.batches.map((b) => b.loss));
      expect(point.report.training_metrics.batch_size).toBe(batch);
    }

    expect(study.critical_batch).not.toBeNull();
    expect(Object.keys(study.critical_batch!.scaling_efficiency)).toEqual(['8', '16']);
    const g = study.gradient_noise!;
    // at batch 16 on 2 replicas: shards of 8, each cut into 2 micro-batches of 4
    expect(g).toMatchObject({ steps: 8, b_big: 16, b_small: 4 });
    // eight updates of 16 rows rarely resolve |G|² on this data (its noise scale is in the hundreds): then B_simple is
    // reported unresolved with a lower bound, never as a negative number
    expect(g.trace_mean).toBeGreaterThan(0);
    if (g.b_simple === null) expect(g.note).toMatch(/could not be told from 0/);
    else expect(g.b_simple).toBeGreaterThan(0);
    expect(g.b_simple_ci95[0]).toBeGreaterThanOrEqual(0);

    expect(study.max_batch).toMatchObject({
      max_batch_size: 32,
      limited_by: 'cap',
      first_failing: null,
      memory_limit_bytes: 2 ** 32,
    });
    expect(study.max_batch!.tries.map((t) => [t.batch_size, t.fits])).toEqual([
      [8, true],
      [16, true],
      [32, true],
    ]);
    for (const t of study.max_batch!.tries) expect(t.memory_bytes).toBeGreaterThan(2 ** 20);

    // maou's sweep payload: its keys, a row per point that ran from that point's own maou view, the failed point kept
    const maou = study.maou!;
    expect(Object.keys(maou).sort()).toEqual(
      ['cbs_estimation', 'comparison', 'detailed_results', 'oom_batch_sizes', 'summary', 'sweep_type'].sort(),
    );
    expect(Object.keys(study.maou_omitted!)).toEqual([
      'gpu_batch_size_recommendation',
      'comparison[].peak_gpu_memory_mb',
    ]);
    expect(maou.sweep_type).toBe('batch_size');
    // each row from its point's own maou block: the step time is maou's actual_average_batch_time
    for (const [i, batch] of [8, 16].entries()) {
      const m = okPoint(study, batch).report.maou.training_metrics;
      expect(maou.comparison[i]).toMatchObject({ batch_size: batch, avg_batch_time: m.actual_average_batch_time });
    }
    expect(maou.comparison).toHaveLength(2);
    expect(maou.detailed_results[0]).toEqual({ ...okPoint(study, 8).report.maou, sweep_batch_size: 8 });
    expect(maou.detailed_results[2]).toEqual({
      sweep_batch_size: 4096,
      oom: false,
      error: expect.stringMatching(/--batch-size/),
    });
    expect(maou.sweep_type === 'batch_size' && maou.oom_batch_sizes).toEqual([]);
    const { estimated_cbs, cbs_exceeds_tested, scaling_efficiency } = study.critical_batch!;
    expect(maou.sweep_type === 'batch_size' && maou.cbs_estimation).toMatchObject({
      estimated_cbs,
      cbs_exceeds_tested,
      scaling_efficiency,
    });
    expect(maou.summary.split('\n').slice(0, 4)).toEqual([
      '=== Batch Size Sweep Results ===',
      '    BS |   samp/s |  batch_t |   data_t |    fwd_t |    bwd_t |   GPU MB |       loss',
      '-'.repeat(85),
      expect.stringMatching(/^ {5}8 \| +\d+\.\d \| /),
    ]);

    const rules = study.recommendations.map((x) => x.rule);
    expect(rules).toEqual(expect.arrayContaining(['sweep-batch-size', 'max-batch', 'sweep-failures']));
    expect(study.recommendations.find((x) => x.rule === 'sweep-failures')).toMatchObject({
      flag: '--batch-size',
      value: '16',
    });
  }, 240_000);

  it('given a tiny vit, then the sweep, the max-batch search and the CBS / noise-scale estimate all run on it', async () => {
    // maou's ViT at a width that keeps the spec cheap: 165,433 parameters at Stage 3 (MLP ratio 4)
    // The network is under test, not the replicas (the first case has them): one thread, no replica workers to start.
    const vit = {
      modelArchitecture: 'vit',
      vitEmbedDim: 64,
      vitNumLayers: 1,
      vitNumHeads: 2,
      maxBatches: 4,
      threads: 1,
    };
    const r = await container()
      .resolve(BatchStudyUseCase)
      .execute({
        config: config(vit),
        sweep: { type: 'batch_size', values: [4, 8] },
        estimateCbs: true,
        findMaxBatch: true,
        maxBatchCap: 16,
      });
    if (!r.ok) throw new Error(r.error.message);
    const study = r.value;
    expect(study.sweep!.points.map((p) => [p.batch_size, p.status])).toEqual([
      [4, 'ok'],
      [8, 'ok'],
    ]);
    for (const batch of [4, 8]) {
      const point = okPoint(study, batch);
      expect(point.report.model).toMatchObject({ preset: 'vit', parameters: 165_433 });
      expect(point.report.training_metrics.batch_size).toBe(batch);
    }
    expect(Object.keys(study.critical_batch!.scaling_efficiency)).toEqual(['4', '8']);
    // maou's --adaptive-batch settings for the CBS found, from the largest tested batch
    expect(study.critical_batch!.adaptive_batch_recommendation).toMatchObject({
      physical_batch_size: 8,
      cli_example: expect.stringMatching(/^--batch-size 8 --adaptive-batch --adaptive-batch-min-steps \d+/),
    });
    // and its guide between adaptive batch and a fixed batch with an LR schedule, by CBS ÷ that batch
    const cbs = study.critical_batch!;
    expect(cbs.strategy_recommendation).toMatchObject({
      recommendation: expect.stringMatching(/^(adaptive_batch|either|lr_scheduler)$/),
      cbs_to_physical_ratio: Math.round((cbs.estimated_cbs / 8) * 10) / 10,
    });
    expect(study.gradient_noise).toMatchObject({ b_big: 8 });
    expect(study.gradient_noise!.trace_mean).toBeGreaterThan(0);
    expect(study.max_batch).toMatchObject({ max_batch_size: 16, limited_by: 'cap' });
  }, 240_000);

  it("given a clock that only counts readings, then every figure of a point is the single run's, within the other's intervals", async () => {
    // One replica (the main thread) and no loader workers, so every clock reading goes through the ticking clock.
    const cfg = (batchSize: number): BenchmarkConfig => {
      const raw = {
        ...SAMPLE,
        batchSize,
        maxBatches: 6,
        warmupBatches: 2,
        gpu: 'wasm',
        threads: 1,
        dataloaderWorkers: 0,
      };
      const v = toBenchmarkConfig(raw, { ...defaults(), ...plannedSettings(givenSettings(raw)) });
      if (!v.ok) throw new Error(JSON.stringify(v.error));
      return v.value.config;
    };
    // the plan the command hands the study: --batch-size 8, decided by the domain
    const host = usableResources({ version: 'none', cpuQuotaCores: null, memoryLimitBytes: null }, 2, 16 * 2 ** 30);
    const plan = planResources(host, { batchSize: 8, threads: 1, workers: 0 });
    const r = await ticking()
      .resolve(BatchStudyUseCase)
      .execute({
        config: cfg(8),
        sweep: { type: 'batch_size', values: [8, 16] },
        estimateCbs: false,
        findMaxBatch: false,
        resourceLimits: plan.report,
      });
    if (!r.ok) throw new Error(r.error.message);
    for (const batch of [8, 16]) {
      const point = okPoint(r.value, batch).report;
      // each point's plan shows the batch it ran: the sweep's decision over the plan's --batch-size 8
      expect(point.resource_limits!.decisions.find((d) => d.setting === 'batch_size')).toMatchObject(
        batch === 8
          ? { value: 8, origin: 'user' }
          : { value: 16, origin: 'study', replaced: { value: 8, origin: 'user', reason: '--batch-size given' } },
      );
      const alone = await ticking()
        .resolve(BenchmarkTrainingUseCase)
        .execute({ config: cfg(batch) });
      if (!alone.ok) throw new Error(alone.error.message);
      const single = alone.value.report;
      expect(point.training_metrics.batch_ms).toEqual(single.training_metrics.batch_ms);
      expect(point.training_metrics.samples_per_second_ci95).toEqual(single.training_metrics.samples_per_second_ci95);
      expect(point.epoch_estimate).toEqual(single.epoch_estimate);
      expect(inside(point.training_metrics.samples_per_second, single.training_metrics.samples_per_second_ci95)).toBe(
        true,
      );
      expect(point.batches.map((b) => b.loss)).toEqual(single.batches.map((b) => b.loss));
      // the point's headline figures are the single run's epoch estimate and its interval, not a second ±
      const headline = okPoint(r.value, batch);
      const e = single.epoch_estimate;
      expect(headline.epoch_ms_ci95).toEqual(e.predicted_ms_ci95);
      expect(headline.epoch_half_width_fraction).toBe(e.half_width_fraction);
      expect(headline.samples_per_second).toBeCloseTo((e.samples_per_epoch * 1000) / e.predicted_ms, 9);
      expect(headline.samples_per_second_ci95[0]).toBeCloseTo((e.samples_per_epoch * 1000) / e.predicted_ms_ci95[1], 9);
    }
  }, 240_000);

  it('given a learning-rate sweep, then each point trains at its rate, as a single run at that rate does', async () => {
    // The rates are under test, not the replicas (the first case has them): one thread, no replica workers to start.
    const r = await container()
      .resolve(BatchStudyUseCase)
      .execute({
        config: config({ threads: 1 }),
        sweep: { type: 'learning_rate', values: [0.001, 0.05] },
        estimateCbs: false,
        findMaxBatch: false,
      });
    if (!r.ok) throw new Error(r.error.message);
    const [slow, fast] = [okPoint(r.value, 8, 0.001), okPoint(r.value, 8, 0.05)];
    expect(slow.report.config['training.learningRate']).toBe(0.001);
    expect(fast.report.batches.map((b) => b.loss)).not.toEqual(slow.report.batches.map((b) => b.loss));
    const alone = await single(config({ learningRatio: 0.05, threads: 1 }));
    expect(fast.report.batches.map((b) => b.loss)).toEqual(alone.batches.map((b) => b.loss));
    expect(r.value.recommendations.map((x) => x.rule)).toContain('sweep-learning-rate');
    expect(r.value.critical_batch).toBeNull();
    // maou's learning-rate sweep payload: no OOM list or CBS, the rows from each point's maou view
    const maou = r.value.maou!;
    expect(Object.keys(maou).sort()).toEqual(['comparison', 'detailed_results', 'summary', 'sweep_type']);
    expect(maou.comparison).toEqual(
      [slow, fast].map((p) => ({
        learning_rate: p.learning_rate,
        average_loss: p.report.maou.training_metrics.average_loss,
        final_loss: p.report.maou.training_metrics.final_loss,
        samples_per_second: p.report.maou.training_metrics.samples_per_second,
      })),
    );
    expect(maou.detailed_results.map((d) => ('sweep_learning_rate' in d ? d.sweep_learning_rate : null))).toEqual([
      0.001, 0.05,
    ]);
    expect(maou.summary).toMatch(/^=== Learning Rate Sweep Results ===\n/);
    expect(maou.summary).toMatch(/\nBest Learning Rate: (0\.001|0\.05) \(avg_loss: \d+\.\d{6}\)$/);
  }, 240_000);
});
