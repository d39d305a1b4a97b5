import {
  MAOU_OMITTED,
  PHASES,
  REPORT_SCHEMA_VERSION,
  compareRuns,
  summarize,
  toMaouPayload,
  type BatchTiming,
  type MaouViewSource,
  type BenchmarkCompareReport,
  type BenchmarkTrainingReport,
  type Phase,
} from '@maou/bench-domain';
import type { BenchmarkDataloaderOutput, GridPoint, Recommendation } from '@maou/bench-use-cases';

/** Deterministic noise in [-0.5, 0.5) so fixtures are stable across runs. @internal */
const noise = (seed: number): (() => number) => {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return s / 2 ** 31 - 0.5;
  };
};

const SHARES: Readonly<Record<Phase, number>> = {
  dataWait: 0.18,
  hostToDevice: 0.04,
  forward: 0.3,
  loss: 0.03,
  backward: 0.36,
  optimizer: 0.07,
  other: 0.02,
};

/** A plausible training report; `hostile` puts script-like text into every user-controlled string. @internal */
export const trainingReportFixture = (
  batchCount = 60,
  hostile = '<img src=x onerror="document.title=\'pwned\'">',
): BenchmarkTrainingReport => {
  const rnd = noise(7);
  let start = 0;
  const batches: BatchTiming[] = Array.from({ length: batchCount }, (_, index) => {
    const wallMs = (index < 3 ? 160 - index * 30 : 40) * (1 + rnd() * 0.2);
    const phases = Object.fromEntries(PHASES.map((p) => [p, wallMs * SHARES[p]])) as Record<Phase, number>;
    const b = {
      index,
      warmup: index < 3,
      samples: 256,
      startMs: start,
      wallMs,
      phases,
      loss: 7 - index * 0.02,
      numTensors: 120,
    };
    start += wallMs;
    return b;
  });
  const steady = batches.filter((b) => b.index >= 5);
  const batchMs = summarize(steady.map((b) => b.wallMs));
  const rate = (256 * 1000) / batchMs.mean;
  const base: MaouViewSource = {
    schema_version: REPORT_SCHEMA_VERSION,
    command: 'benchmark-training',
    created_at: '2025-01-02T03:04:05.000Z',
    stage: 3,
    model: { preset: `resnet-small ${hostile}`, parameters: 1_234_567, multiply_adds_per_sample: 9_000_000 },
    config: {
      note: hostile,
      'loader.workers': 2,
      'loader.prefetchFactor': 2,
      'loader.pinMemory': false,
      max_batches: 100,
      enable_profiling: false,
      run_validation: true,
      sample_ratio: null,
      'training.optimizer': 'adamw',
      'training.learningRate': 0.01,
      'training.momentum': 0.9,
      'training.policyLossRatio': 1,
      'training.valueLossRatio': 1,
    },
    environment: {
      node: 'v20.19.0',
      platform: 'linux',
      arch: 'x64',
      cpus: 2,
      cpu_model: `Test CPU ${hostile}`,
      memory_bytes: 8e9,
      tfjs_version: '4.22.0',
      backend: 'wasm',
      backend_version: '4.22.0',
      threads: 2,
      device: 'cpu',
      backend_notes: [],
      maou_bench_version: '0.1.0',
    },
    data_load_method: {},
    io: null,
    training_metrics: {
      total_batches: batchCount,
      warmup_batches: 3,
      steady_state_start: 5,
      measured_batches: steady.length,
      measured_samples: steady.length * 256,
      batch_size: 256,
      samples_per_second: rate,
      samples_per_second_ci95: [(256 * 1000) / batchMs.ci95[1], (256 * 1000) / batchMs.ci95[0]],
      samples_per_second_ci95_note: null,
      batch_ms: batchMs,
      batch_ms_drift: 0,
      batch_ms_including_warmup_mean: summarize(batches.map((b) => b.wallMs)).mean,
      warmup_total_ms: 300,
      phase_ms: Object.fromEntries(PHASES.map((p) => [p, summarize(steady.map((b) => b.phases[p]))])) as Record<
        Phase,
        ReturnType<typeof summarize>
      >,
      phase_share: SHARES,
      initial_loss: 7,
      final_loss: 5.8,
      tensors_per_batch: { first: 120, last: 120, leaked_per_batch: 0 },
    },
    validation_metrics: null,
    epoch_estimate: {
      batches_per_epoch: 4000,
      samples_per_epoch: 1_024_000,
      predicted_ms: 160_300,
      predicted_ms_ci95: [155_000, 166_000],
      warmup_cost_ms: 300,
      method: 'steady mean × batches + warm-up',
    },
    estimation: {
      sample_ratio: 0.01,
      sampled_samples_per_epoch: 1_024_000,
      full_samples_per_epoch: 102_400_000,
      full_epoch_ms: 16_030_000,
      full_epoch_ms_ci95: [15_500_000, 16_600_000],
      method: 'linear in samples',
    },
    recommendations: [
      {
        rule: 'data-wait-high',
        severity: 'warning',
        message: `Raise workers ${hostile}`,
        flag: '--dataloader-workers',
        value: '4',
        evidence: 'data_wait share 0.18 > 0.15',
      },
      {
        rule: 'batch-size',
        severity: 'info',
        message: 'Batch size fits memory',
        flag: null,
        value: null,
        evidence: 'peak RSS 1.1 GiB',
      },
    ],
    resources: {
      interval_ms: 250,
      samples: 12,
      cpu_percent: { mean: 180, peak: 198 },
      rss_bytes: { mean: 9e8, peak: 1.1e9 },
      heap_used_bytes: { mean: 2e8, peak: 3e8 },
      gpu_util_percent: null,
      gpu_memory_bytes: null,
      gpu_memory_total_bytes: null,
      timeline: Array.from({ length: 12 }, (_, i) => ({
        t_ms: i * 250,
        cpu_percent: 150 + i * 4,
        rss_bytes: 8e8 + i * 2e7,
        heap_used_bytes: 2e8 + i * 5e6,
        gpu_util_percent: null,
      })),
    },
    profile: null,
    null_reasons: {
      validation_metrics: '--run-validation not given',
      profile: '--enable-profiling not given',
      io: 'local files',
    },
    resource_limits: null,
    batches,
  };
  return { ...base, maou: toMaouPayload(base), maou_omitted: MAOU_OMITTED };
};

/** A small workers × prefetch × batch-size grid with three repeats per point. @internal */
export const dataloaderFixture = (hostile = '<script>document.title="pwned"</script>'): BenchmarkDataloaderOutput => {
  const rate = (w: number, f: number | null, b: number): number =>
    4000 * Math.sqrt(w + 1) * (1 + 0.1 * (f ?? 0)) * (b / 256 + 0.5);
  const points: GridPoint[] = [0, 1, 2, 4].flatMap((workers) =>
    (workers === 0 ? [null] : [1, 2]).flatMap((prefetchFactor) =>
      [128, 256].map((batchSize) => {
        const median = rate(workers, prefetchFactor, batchSize);
        const runs = [median * 0.97, median, median * (1.02 + 0.01 * workers)];
        return {
          batchSize,
          workers,
          prefetchFactor,
          samplesPerSecond: { median, min: runs[0]!, max: runs[2]!, runs },
          p95WaitMs: 40 / (workers + 1),
          // three repeats of 20 batches, each at its run's rate
          timedMs: runs.reduce((t, r) => t + (20 * batchSize * 1000) / r, 0),
          timedBatches: 60,
          keepsModelFed: median > 9000,
          resources: null,
        };
      }),
    ),
  );
  const pick = (batchSize: number): Recommendation => {
    const p = points
      .filter((q) => q.batchSize === batchSize && q.keepsModelFed)
      .sort((x, y) => x.workers - y.workers)[0]!;
    return {
      batchSize,
      workers: p.workers,
      prefetchFactor: p.prefetchFactor,
      loaderSamplesPerSecond: p.samplesPerSecond.median,
      modelSamplesPerSecond: 9000,
      basis: 'fed',
      flags: [
        `--batch-size ${batchSize}`,
        `--dataloader-workers ${p.workers}`,
        `--prefetch-factor ${p.prefetchFactor ?? 2}`,
      ],
    };
  };
  return {
    backend: 'wasm',
    device: 'cpu',
    onGpu: false,
    dataset: `sample ${hostile}`,
    loaderMode: 'streaming',
    points,
    consumption: { 128: 9000, 256: 9000 },
    perBatchSize: [pick(128), pick(256)],
    recommended: pick(256),
    resourceLimits: null,
  };
};

/** Two runs, B about 10 % slower, with an environment difference. @internal */
export const compareFixture = (
  hostile = '</script><script>document.title="pwned"</script>',
): BenchmarkCompareReport => {
  const rnd = noise(3);
  const a = Array.from({ length: 40 }, () => 40 * (1 + rnd() * 0.1));
  const b = Array.from({ length: 40 }, () => 44 * (1 + rnd() * 0.1));
  return {
    schema_version: 1,
    command: 'benchmark-compare',
    a: { path: 'runs/a.json', label: `wasm ${hostile}`, batch_ms: a, samples_per_second: 6400 },
    b: { path: 'runs/b.json', label: 'cpu', batch_ms: b, samples_per_second: 5800 },
    comparison: compareRuns(a, b),
    environment_diff: [{ key: 'backend', a: 'wasm', b: hostile }],
    config_diff: [],
  };
};
