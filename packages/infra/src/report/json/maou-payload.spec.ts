import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  MAOU_OMITTED,
  assessRun,
  closePhases,
  computeTrainingMetrics,
  estimateEpoch,
  estimateFromSample,
  phaseBreakdown,
  summarize,
  summarizeResources,
  toMaouPayload,
  type BatchTiming,
  type MaouViewSource,
  type ValidationMetrics,
} from '@maou/bench-domain';

// The keys of maou's benchmark-training payload (§5.2 of reference/maou-benchmark-spec.md), as data: wherever the
// reference is mounted, a spec below parses §5.2 again and expects exactly this list, so it cannot drift.
const KEYS = join(__dirname, 'testdata', 'maou-payload-keys.json');
// The shared reference sits beside the main checkout (../shared) or beside the worktrees' parent (../../shared).
const REPO = join(__dirname, '..', '..', '..', '..', '..');
const REFERENCE = [join(REPO, '..', 'shared'), join(REPO, '..', '..', 'shared')]
  .map((d) => join(d, 'reference', 'maou-benchmark-spec.md'))
  .find(existsSync);

interface ReferenceKeys {
  readonly top: string[];
  readonly nested: Record<string, string[]>;
  readonly metrics: string[];
  readonly timingCategories: string[];
  readonly modelInfo: string[];
}

const identifiers = (s: string): string[] =>
  s
    .split(/[,\s]+/)
    .map((t) => t.trim())
    .filter((t) => /^[a-z_]+$/.test(t));

/** Keys from the payload sketch (PRIMARY) and the HEAD additions paragraph. */
const parseReference = (text: string): ReferenceKeys => {
  const block = text.slice(text.indexOf('```') + 3, text.indexOf('```', text.indexOf('```') + 3));
  const [payload, metricsPart] = block.split(/^MetricsDict.*$/m) as [string, string];
  const top: string[] = [];
  const nested: Record<string, string[]> = {};
  for (const line of payload.split('\n')) {
    const t = /^ {2}"(\w+)":/.exec(line);
    if (t) top.push(t[1]!);
    const n = /^ {4}"(\w+)":/.exec(line);
    if (n) (nested[top.at(-1)!] ??= []).push(n[1]!);
  }
  const metrics = metricsPart.split('\n').flatMap((l) =>
    identifiers(
      l
        .replace(/\/\/.*$/, '')
        .replace(/\([^)]*\)/g, '')
        .replace(/:.*$/, ''),
    ),
  );
  const head = text.slice(text.indexOf('HEAD additions'));
  const ticked = (re: RegExp): string[] => identifiers(re.exec(head)?.[1] ?? '');
  // The metrics keys HEAD added: each `;`-separated item before the configuration additions that opens with a ticked key.
  const additions = head.slice(0, head.indexOf('`configuration` adds')).split(';');
  metrics.push(...additions.flatMap((item) => /`([a-z_]+)[`:]/.exec(item)?.[1] ?? []));
  nested.configuration!.push(...ticked(/`configuration` adds `([^`]+)`/));
  if (head.includes('`benchmark_results.validation_skipped')) nested.benchmark_results!.push('validation_skipped');
  return {
    top,
    nested,
    metrics,
    timingCategories: ticked(/for categories `([^`]+)`/),
    modelInfo: ticked(/`model_info: \{([^}]+)\}/),
  };
};

const reference = JSON.parse(readFileSync(KEYS, 'utf8')) as ReferenceKeys;

// A run of 12 batches: 3 slow warm-up ones, then steady ones with a data wait; losses fall.
const batches: BatchTiming[] = Array.from({ length: 12 }, (_, index) => {
  const wall = index < 3 ? 900 - index * 200 : 100 + (index % 3);
  const closed = closePhases(wall, { dataWait: 10, hostToDevice: 2, forward: 30, loss: 3, backward: 40, optimizer: 8 });
  return { index, warmup: index < 3, samples: 64, startMs: 0, ...closed, loss: 7 - index * 0.1, numTensors: 50 };
});
const validationBatches = [0, 1, 2].map((i) => ({
  ...batches[5 + i]!,
  index: i,
  warmup: false,
  ...closePhases(40, { dataWait: 5, hostToDevice: 1, forward: 20, loss: 2, backward: 0, optimizer: 0 }),
}));

const source = (over: Partial<MaouViewSource> = {}): MaouViewSource => {
  const metrics = computeTrainingMetrics(batches, 3, 3);
  const assessment = assessRun(
    { wallMs: batches.map((b) => b.wallMs), cpu: [], disturbed: [] },
    { minWarmup: 3, batchesPerEpoch: 500 },
  );
  const epoch = estimateEpoch(metrics, 500, 32_000, assessment);
  const resources = summarizeResources(
    [0, 1, 2].map((i) => ({
      tMs: i * 250,
      cpuPercent: 150 + i * 10,
      rssBytes: 2 ** 30 + i,
      heapUsedBytes: 1e8,
      gpuUtilPercent: 40 + i,
      gpuMemoryBytes: 2e9 + i * 1e9,
      gpuMemoryTotalBytes: 8e9,
    })),
    250,
  );
  const validation: ValidationMetrics = {
    batches: 3,
    samples: 192,
    samples_per_second: 1600,
    batch_ms: summarize([40, 40, 40]),
    ...phaseBreakdown(validationBatches),
    // a short last batch: the sample-weighted mean (6) is not the batches' mean (6.05), which maou reports
    loss: 6,
    batch_mean_loss: 6.05,
    final_loss: 5.9,
    metrics: {},
    resources,
  };
  return {
    schema_version: 2,
    command: 'benchmark-training',
    created_at: '2026-01-01T00:00:00.000Z',
    stage: 3,
    model: { preset: 'resnet', parameters: 17_012_665, multiply_adds_per_sample: 103_152_064 },
    config: {
      'loader.workers': 2,
      'loader.prefetchFactor': 2,
      'loader.pinMemory': false,
      max_batches: 12,
      enable_profiling: false,
      run_validation: true,
      sample_ratio: 0.5,
      'training.optimizer': 'adamw',
      'training.learningRate': 0.01,
      'training.momentum': 0.9,
      'training.policyLossRatio': 1,
      'training.valueLossRatio': 1,
    },
    environment: {
      node: 'v20',
      platform: 'linux',
      arch: 'x64',
      cpus: 2,
      cpu_model: 'x',
      memory_bytes: 8 * 2 ** 30,
      tfjs_version: '4.22.0',
      backend: 'tensorflow-gpu',
      backend_version: '4.22.0',
      threads: 2,
      device: 'cuda:0',
      backend_notes: [],
      maou_bench_version: '0.1.0',
    },
    data_load_method: {
      mode: 'streaming',
      workers: 1,
      pinMemory: false,
      batches_per_epoch: { train: 500, validation: 125 },
    },
    io: null,
    training_metrics: metrics,
    validation_metrics: validation,
    epoch_estimate: epoch,
    estimation: estimateFromSample(metrics, epoch, 0.5, assessment),
    recommendations: [
      {
        rule: 'r',
        severity: 'suggestion',
        message: 'Raise workers',
        flag: '--dataloader-workers',
        value: '2',
        evidence: 'e',
      },
    ],
    resources,
    profile: null,
    null_reasons: { profile: '--enable-profiling not given', io: 'local' },
    resource_limits: null,
    batches,
    ...over,
  };
};

const keys = (o: object | undefined): string[] => Object.keys(o ?? {}).sort();
const expected = (wanted: readonly string[], path: string): string[] =>
  wanted.filter((k) => !(`${path}.${k}` in MAOU_OMITTED)).sort();

describe('maou payload view', () => {
  it('reads the key list from the reference: top-level blocks, MetricsDict and the later additions', () => {
    expect(reference.top).toEqual([
      'benchmark_results',
      'training_metrics',
      'validation_metrics',
      'estimation',
      'configuration',
    ]);
    expect(reference.metrics).toEqual(
      expect.arrayContaining([
        'total_epoch_time',
        'actual_average_batch_time',
        'data_load_method',
        'resource_gpu_memory_max_percent',
      ]),
    );
    expect(reference.metrics.slice(-5)).toEqual([
      'unaccounted_time',
      'resource_gpu_avg_percent',
      'timing_distribution',
      'model_info',
      'gpu_memory_breakdown',
    ]);
    expect(reference.nested.estimation).toEqual([
      'sample_ratio',
      'estimated_full_epoch_time_seconds',
      'estimated_full_epoch_time_minutes',
      'estimated_total_batches',
      'actual_batches_processed',
    ]);
    expect(reference.nested.configuration).toEqual(
      expect.arrayContaining(['device', 'sample_ratio', 'stage', 'trainable_layers']),
    );
    expect(reference.timingCategories).toHaveLength(7);
  });

  it('given a run with validation, sampling and monitoring, then every key of the reference is present or omitted with a reason, and no other key', () => {
    const p = toMaouPayload(source());
    expect(keys(p)).toEqual([...reference.top].sort());
    expect(keys(p.benchmark_results)).toEqual(['Recommendations', 'Summary', 'ValidationSummary']);
    expect(keys(p.estimation)).toEqual([...reference.nested.estimation!].sort());
    expect(keys(p.configuration)).toEqual([...reference.nested.configuration!].sort());
    expect(keys(p.training_metrics)).toEqual(expect.arrayContaining(expected(reference.metrics, 'training_metrics')));
    expect(keys(p.training_metrics).filter((k) => !reference.metrics.includes(k))).toEqual([]);
    expect(keys(p.validation_metrics)).toEqual(
      expected(reference.metrics, 'training_metrics').filter((k) => k !== 'timing_distribution' && k !== 'model_info'),
    );
    expect(keys(p.training_metrics.timing_distribution)).toEqual([...reference.timingCategories].sort());
    expect(keys(p.training_metrics.model_info)).toEqual([...reference.modelInfo].sort());
    for (const omitted of Object.keys(MAOU_OMITTED)) expect(reference.metrics).toContain(omitted.split('.')[1]);
  });

  it('given the measured batches, then the figures are in seconds and add up as maou defines them', () => {
    const m = toMaouPayload(source()).training_metrics;
    expect(m.total_batches).toBe(12);
    expect(m.warmup_batches + m.measured_batches).toBe(12);
    expect(m.warmup_time).toBeCloseTo((900 + 700 + 500) / 1000, 12);
    expect(m.total_epoch_time).toBeCloseTo(m.warmup_time + m.measured_time, 12);
    expect(m.actual_average_batch_time * m.measured_batches).toBeCloseTo(m.measured_time, 12);
    expect(m.average_batch_time).toBeCloseTo(
      m.actual_average_batch_time - m.data_loading_time - m.gpu_transfer_time,
      12,
    );
    expect(m.data_loading_time).toBeCloseTo(0.01, 12);
    expect(m.samples_per_second).toBeCloseTo((9 * 64) / m.measured_time, 9);
    expect(m.average_loss).toBeCloseTo(7 - 0.55, 12);
    expect(m.final_loss).toBeCloseTo(5.9, 12);
    expect(m.data_load_method).toBe('streaming');
    expect(m.resource_cpu_max_percent).toBeCloseTo(85, 9);
    expect(m.resource_gpu_max_percent).toBe(42);
    expect(m.resource_gpu_memory_max_bytes).toBe(4e9);
    expect(m.resource_gpu_memory_total_bytes).toBe(8e9);
    expect(m.resource_gpu_memory_max_percent).toBeCloseTo(50, 12);
    expect(m.timing_distribution!.data_loading.p95).toBeCloseTo(0.01, 12);
  });

  it("given a CPU backend on a host whose nvidia-smi answers, then no GPU figure is reported as the run's (maou samples the GPU only for CUDA)", () => {
    const gpuRun = source();
    const p = toMaouPayload(
      source({ environment: { ...gpuRun.environment, backend: 'wasm', device: 'cpu (WebAssembly SIMD)' } }),
    );
    expect(p.configuration.device).toBe('cpu');
    for (const m of [p.training_metrics, p.validation_metrics!]) {
      expect(Object.keys(m).filter((k) => k.startsWith('resource_gpu'))).toEqual([]);
      expect(m.resource_cpu_max_percent).toBeGreaterThan(0);
    }
    expect(toMaouPayload(gpuRun).configuration.device).toBe('cuda:0');
  });

  it('given the placement the registry recorded, then it decides GPU figures and device; a report without it is judged by the backend name', () => {
    const gpuRun = source();
    const placed = (backend: string, backend_placement: 'host' | 'device' | undefined) =>
      toMaouPayload(
        source({
          environment: { ...gpuRun.environment, backend, ...(backend_placement ? { backend_placement } : {}) },
        }),
      );
    // a plug-in GPU backend no list of names knows
    const plugIn = placed('vendor-gpu', 'device');
    expect(plugIn.configuration.device).toBe('cuda:0');
    expect(plugIn.training_metrics.resource_gpu_max_percent).toBe(42);
    const host = placed('tensorflow-gpu', 'host');
    expect(host.configuration.device).toBe('cpu');
    expect(Object.keys(host.training_metrics).filter((k) => k.startsWith('resource_gpu'))).toEqual([]);
    // reports from before the field: the names of the GPU backends of that time
    expect(
      [placed('tensorflow-gpu', undefined), placed('vendor-gpu', undefined)].map((p) => p.configuration.device),
    ).toEqual(['cuda:0', 'cpu']);
  });

  it('given a validation pass, then its block has the training breakdown with backward and optimiser at 0', () => {
    const v = toMaouPayload(source()).validation_metrics!;
    expect(v).toMatchObject({
      total_batches: 3,
      warmup_batches: 0,
      warmup_time: 0,
      backward_pass_time: 0,
      optimizer_step_time: 0,
      data_load_method: 'streaming',
      average_loss: 6.05,
    });
    expect(v.data_loading_time).toBeCloseTo(0.005, 12);
    expect(v.forward_pass_time).toBeCloseTo(0.02, 12);
    expect(v.unaccounted_time).toBeCloseTo(0.012, 12);
  });

  it('given validation asked for and not run, then validation_skipped carries the reason; not asked for, then no key; estimation empty, as in maou', () => {
    const skipped = (runValidation: boolean, reason: string) =>
      toMaouPayload(
        source({
          config: { ...source().config, run_validation: runValidation },
          validation_metrics: null,
          estimation: null,
          null_reasons: { validation_metrics: reason },
        }),
      );
    const stage1 = 'Stage 1 has no validation split (as in maou, every row trains)';
    expect(skipped(true, stage1).benchmark_results.validation_skipped).toBe(stage1);
    const p = skipped(false, '--run-validation not given');
    expect(keys(p.benchmark_results)).toEqual(['Recommendations', 'Summary']);
    expect(p.validation_metrics).toBeUndefined();
    expect(p.estimation).toEqual({});
    expect(p.benchmark_results.Summary).toMatch(/^Training Performance Summary:\n {2}Processed Batches: 12 \/ 500\n/);
    expect(p.benchmark_results.Recommendations).toBe('Performance Recommendations:\n- Raise workers');
  });

  it.each(['training.optimizer', 'training.learningRate', 'loader.prefetchFactor', 'enable_profiling'])(
    'given a report config without %s, then the view throws naming it instead of printing a default no run used',
    (key) => {
      const { config } = source();
      const without = Object.fromEntries(Object.entries(config).filter(([k]) => k !== key));
      expect(() => toMaouPayload(source({ config: without }))).toThrow(`the report config's '${key}' is undefined`);
    },
  );

  const mounted = REFERENCE ? it : it.skip;
  mounted('the key list is what §5.2 of the reference says, where the reference is mounted', () => {
    const text = readFileSync(REFERENCE!, 'utf8');
    expect(parseReference(text.slice(text.indexOf('### 5.2 '), text.indexOf('### 5.3 ')))).toEqual(reference);
  });
});

describe('maou view of the model flags of maou HEAD', () => {
  it('given a frozen ViT run, then model_info counts the trainable parameters and configuration echoes the flags as given', () => {
    const base = source();
    const p = toMaouPayload(
      source({
        model: { preset: 'vit', parameters: 19_766_713, trainable_parameters: 767_961, multiply_adds_per_sample: 1 },
        config: { ...base.config, 'training.freezeBackbone': true, 'training.trainableLayers': null },
      }),
    );
    expect(p.training_metrics.model_info).toEqual({
      total_parameters: 19_766_713,
      trainable_parameters: 767_961,
      model_memory_bytes: 19_766_713 * 4,
    });
    expect(p.configuration).toMatchObject({ model_architecture: 'vit', freeze_backbone: true, trainable_layers: null });
    const partial = toMaouPayload(source({ config: { ...base.config, 'training.trainableLayers': 2 } }));
    expect(partial.configuration).toMatchObject({ freeze_backbone: false, trainable_layers: 2 });
  });
});
