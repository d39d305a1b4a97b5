import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  planResources,
  toMaouPayload,
  usableResources,
  type BatchTiming,
  type TrainingMetrics,
} from '@maou/bench-domain';
import { TEST_HOST, testBenchmarkConfig } from '../../testing';
import { StopWatch } from './stop-watch';
import { buildTrainingReport, type TrainingReportInputs } from './training-report';

// What a real run measured (its command in the file): the batches as the training pass timed them, the loader's
// epoch, and the training metrics the use case reported for them before the report had a builder.
const recorded = JSON.parse(readFileSync(join(__dirname, 'testdata', 'short-wasm-run.json'), 'utf8')) as {
  batches: BatchTiming[];
  batches_per_epoch: { train: number; validation: number };
  samples_per_epoch: { train: number; validation: number };
  parameters: number;
  multiply_adds_per_sample: number;
  training_metrics: TrainingMetrics;
};

const config = testBenchmarkConfig({
  loader: { ...testBenchmarkConfig().loader, batchSize: 16, workers: 1 },
  compute: { backend: 'wasm', deviceIndex: 0, threads: 2 },
  warmupBatches: 2,
  maxBatches: 12,
});
const plan = planResources(
  usableResources({ version: 'none', cpuQuotaCores: null, memoryLimitBytes: null }, 2, 16 * 2 ** 30),
  { batchSize: 16 },
);
const inputs = (over: Partial<TrainingReportInputs> = {}): TrainingReportInputs => {
  const judged = new StopWatch(null, {
    warmup: 2,
    planned: 12,
    batchesPerEpoch: recorded.batches_per_epoch.train,
  }).conclude(recorded.batches);
  return {
    createdAt: '2026-11-29T05:00:00.000Z',
    config,
    warnings: ['a note the user saw'],
    host: TEST_HOST,
    backend: { name: 'wasm', version: '4.22.0', threads: 2, device: 'cpu', notes: [] },
    model: {
      parameters: recorded.parameters,
      trainableParameters: recorded.parameters,
      multiplyAddsPerSample: recorded.multiply_adds_per_sample,
    },
    data: {
      source: 'local files',
      loader: { mode: 'map-style', workers: 1 },
      batchesPerEpoch: recorded.batches_per_epoch,
      samplesPerEpoch: recorded.samples_per_epoch,
      devicePrefetch: false,
      io: null,
    },
    measured: { ...judged, warmup: 2, kernels: [] },
    validation: null,
    samples: null,
    adaptive: null,
    resourceLimits: plan.report,
    interruption: null,
    ...over,
  };
};

describe('buildTrainingReport', () => {
  it("given a real run's measured batches, then the metrics are the ones that run reported, the same twice, and its inputs untouched", () => {
    const given = inputs();
    const before = JSON.stringify(given);
    const report = buildTrainingReport(given);
    expect(report.training_metrics).toEqual(recorded.training_metrics);
    expect(buildTrainingReport(given)).toEqual(report);
    expect(JSON.stringify(given)).toBe(before);
    expect(report.epoch_estimate).toMatchObject({
      batches_per_epoch: recorded.batches_per_epoch.train,
      samples_per_epoch: recorded.samples_per_epoch.train,
    });
    expect(report.epoch_estimate.predicted_ms).toBeGreaterThan(0);
    expect(report.created_at).toBe('2026-11-29T05:00:00.000Z');
  });

  it('then the configuration, the notes and the plan are those of the run, and maou’s layout is built from the same report', () => {
    const report = buildTrainingReport(inputs());
    expect(report.config).toMatchObject({
      'loader.batchSize': 16,
      'compute.threads': 2,
      notes: ['a note the user saw'],
    });
    expect(report.environment).toMatchObject({ backend: 'wasm', threads: 2, cpus: TEST_HOST.cpus });
    expect(report.resource_limits).toBe(plan.report);
    expect(report.null_reasons).not.toHaveProperty('resource_limits');
    const { maou, maou_omitted: _omitted, ...base } = report;
    expect(maou).toEqual(toMaouPayload(base));
  });

  it('given no plan, no validation and an interruption, then each null block says why and the report is marked interrupted', () => {
    const interruption = { reason: 'SIGINT', completed_batches: 12, planned_batches: 25 };
    const report = buildTrainingReport(inputs({ resourceLimits: undefined, interruption }));
    expect(report.resource_limits).toBeNull();
    expect(report.null_reasons).toMatchObject({
      resource_limits: expect.any(String),
      validation_metrics: '--run-validation not given',
    });
    expect(report).toMatchObject({ interrupted: true, interruption });
  });
});
