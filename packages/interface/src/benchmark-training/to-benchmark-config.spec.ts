import { backendChoice } from '@maou/bench-use-cases/testing';
import type { BackendChoice, SourceChoice } from '@maou/bench-use-cases';
import { toBenchmarkConfig } from './to-benchmark-config';
import type { RawBenchmarkTrainingOptions } from './raw-options';

// Backends as the compute package's registry describes them (interface may not import it); the shipped registry's
// own `--gpu` choices are checked in compute's backend-registry.spec.
const cuda: BackendChoice = {
  name: 'tensorflow-gpu',
  usage: 'cuda:N',
  help: '',
  placement: 'device',
  selects: (v) => (/^cuda:(\d+)$/.exec(v) ? Number(v.slice(5)) : null),
};
// The source a run names none of, as a plug-in describes it; the shipped plug-ins' parsing is checked in the library's
// source-plug-ins.spec (interface may not import infra).
const fallback: SourceChoice = {
  kind: 'sample',
  help: 'generated data',
  flags: {},
  selectedBy: [],
  parse: (_flags, run) => ({
    warnings: [`no data given: generated (seed ${run.seed})`],
    spec: { kind: 'sample', label: 'generated data', sampled: false, streamable: true },
  }),
};
const defaults = {
  sources: [fallback],
  cache: { dir: '/tmp/sample', origin: 'the cache' },
  workers: 1,
  // the resource plan's decision (the domain's planResources), as the cli hands it over
  batchSize: 256,
  backends: [cuda, backendChoice('wasm', 'host'), backendChoice('cpu', 'host')],
};
const issuesOf = (raw: RawBenchmarkTrainingOptions): string[] => {
  const r = toBenchmarkConfig(raw, defaults);
  return r.ok ? [] : r.error.map((i) => `${i.field}: ${i.message}`);
};

describe('toBenchmarkConfig', () => {
  it('given --mixed-precision, then it needs a backend with that capability (refused for cuda:0, wasm and no --gpu), and reaches training and compute', () => {
    const webgpu: BackendChoice = { ...backendChoice('webgpu', 'device'), mixedPrecision: true };
    const withF16 = { ...defaults, backends: [...defaults.backends, webgpu] };
    for (const gpu of [undefined, 'wasm', 'cuda:0']) {
      const refused = toBenchmarkConfig({ mixedPrecision: true, gpu }, withF16);
      expect(refused.ok ? [] : refused.error.map((i) => `${i.field}: ${i.message}`)).toEqual([
        expect.stringMatching(/^--mixed-precision: needs --gpu webgpu /),
      ]);
    }
    const r = toBenchmarkConfig({ mixedPrecision: true, gpu: 'webgpu' }, withF16);
    if (!r.ok) throw new Error('expected ok');
    expect(r.value.config.training.mixedPrecision).toBe(true);
    expect(r.value.config.compute.mixedPrecision).toBe(true);
  });

  it('given no options, then maou defaults (ResNet preset, clipping at 1.0) on the embedded sample data, with a note saying so', () => {
    const r = toBenchmarkConfig({}, defaults);
    if (!r.ok) throw new Error('expected ok');
    const c = r.value.config;
    expect(c.stage).toBe(3);
    expect(c.source.kind).toBe('sample');
    expect(c.loader.batchSize).toBe(256);
    expect(c.loader.workers).toBe(1);
    expect(c.training).toMatchObject({
      preset: 'resnet',
      gradientClip: 1,
      optimizer: 'adamw',
      learningRate: 0.01,
      weightDecay: 0.01,
      lrScheduler: 'warmup_cosine_decay',
    });
    expect(r.value.warnings.join('\n')).toMatch(/^no data given: generated \(seed 1\)/);
    expect(c.warmupBatches).toBe(10);
    expect(c.maxBatches).toBe(100);
    // no --max-batches typed: the stopping rule decides; maou's 100 stays for validation and the maou block
    expect(c.stopping).toEqual({ targetPrecision: 0.05, timeBudgetMs: 60_000, capGiven: false });
    expect(c.compute.backend).toBe('host');
  });

  it.each<[RawBenchmarkTrainingOptions, RegExp]>([
    [{ batchSize: 0 }, /^--batch-size: must be an integer from 1 to 65,536, got 0$/],
    [{ batchSize: 2.5 }, /^--batch-size:/],
    [{ stage: 4 }, /^--stage: must be an integer from 1 to 3, got 4$/],
    [{ testRatio: 1 }, /^--test-ratio:/],
    [{ sampleRatio: 0.001 }, /^--sample-ratio: must be a finite number from 0.01 to 1, got 0.001$/],
    [{ dataloaderWorkers: -1 }, /^--dataloader-workers:/],
    [{ stage2HiddenDim: -3 }, /^--stage2-hidden-dim:/],
    [{ optimizerBeta1: 0.9, optimizerBeta2: 0.8 }, /^--optimizer-beta2: must be greater than --optimizer-beta1/],
    [{ optimizer: 'adam' }, /^--optimizer: must be 'adamw' or 'sgd'/],
    [{ lrScheduler: 'linear' }, /^--lr-scheduler: unknown scheduler/],
    [{ modelArchitecture: 'convnext' }, /^--model-architecture: unknown architecture 'convnext'/],
    [{ gpu: 'tpu' }, /^--gpu: unknown device/],
    [{ inputCacheMode: 'disk' }, /^--input-cache-mode:/],
    [{ maxBatches: 0 }, /^--max-batches:/],
    [
      { maxBatches: 1 },
      /^--max-batches: must be an integer from 2 to 1,000,000,000, got 1 \(a batch time with an interval needs 2 measured batches/,
    ],
    [{ targetPrecision: 1 }, /^--target-precision: must be a finite number in \[0, 1\), got 1/],
    [
      { timeBudget: -5 },
      /^--time-budget: must be a finite number in \(0, 604,800\], got -5 \(seconds, at most a week\)$/,
    ],
    [{ threads: 65 }, /^--threads: must be an integer from 1 to 64, got 65$/],
    // #19's repros: non-finite and absurd values fail here, naming the flag, not hours later or with exit 1.
    [{ valueLossRatio: Infinity }, /^--value-loss-ratio: must be a finite number in \(0, 1000\], got Infinity$/],
    [{ learningRatio: Infinity }, /^--learning-ratio: must be a finite number in \(0, 10\], got Infinity$/],
    [{ momentum: Number.NaN }, /^--momentum: .* got NaN$/],
    [
      { gradientAccumulationSteps: 1e12 },
      /^--gradient-accumulation-steps: must be an integer from 1 to 1024, got 1,000,000,000,000$/,
    ],
    [{ dataloaderWorkers: 1e12 }, /^--dataloader-workers: must be an integer from 0 to 256, got 1,000,000,000,000$/],
    [{ batchSize: 1e9 }, /^--batch-size:/],
    [{ seed: 2 ** 32 }, /^--seed: must be an integer from 0 to 4,294,967,295, got 4,294,967,296$/],
  ])('given %p, then the issue names the flag', (raw, expected) => {
    expect(issuesOf(raw)).toEqual(expect.arrayContaining([expect.stringMatching(expected)]));
  });

  it("given a backend whose plug-in carries a note, then the run's warnings carry it (the shipped cpu note: cli's source-plug-ins.spec)", () => {
    const slow: BackendChoice = { ...backendChoice('slow', 'host'), note: 'slow is slow' };
    const r = toBenchmarkConfig({ gpu: 'slow' }, { ...defaults, backends: [slow] });
    if (!r.ok) throw new Error('expected ok');
    expect(r.value.warnings).toContain('slow is slow');
  });

  it('reports every bad flag at once', () => {
    expect(issuesOf({ batchSize: 0, momentum: 2, warmupBatches: -1 })).toHaveLength(3);
  });

  it('accepts maou scheduler names and cuda devices', () => {
    const r = toBenchmarkConfig(
      { lrScheduler: 'CosineAnnealingLR', gpu: 'cuda:1', stage: 1, stage12LrScheduler: 'Warmup+CosineDecay' },
      defaults,
    );
    if (!r.ok) throw new Error(JSON.stringify(r.error));
    expect(r.value.config.training.lrScheduler).toBe('warmup_cosine_decay');
    expect(r.value.config.compute).toEqual({ backend: 'tensorflow-gpu', deviceIndex: 1, threads: 'auto' });
    // maou echoes the configured value loss ratio at Stages 1/2 too (its loop alone uses 0 there)
    expect(r.value.config.training.valueLossRatio).toBe(1);
    expect(r.value.config.loader.streaming).toBe(false);
  });

  it("takes maou's --policy-target-mode default (win-rate) at Stage 3 only, and names a bad value (#25)", () => {
    const mode = (raw: Parameters<typeof toBenchmarkConfig>[0]) => {
      const r = toBenchmarkConfig(raw, defaults);
      if (!r.ok) throw new Error(JSON.stringify(r.error));
      return r.value.config.loader.policyTargetMode;
    };
    expect([
      mode({}),
      mode({ policyTargetMode: 'weighted' }),
      mode({ stage: 2, policyTargetMode: 'move-label' }),
    ]).toEqual(['win-rate', 'weighted', undefined]);
    expect(issuesOf({ policyTargetMode: 'label' })).toEqual([
      "--policy-target-mode: must be move-label, win-rate, weighted, got 'label'",
    ]);
  });

  it('trains Stages 1 and 2 on every row by default, as maou HEAD does (Stage 2 splits only with --stage2-test-ratio)', () => {
    const ratio = (raw: Parameters<typeof toBenchmarkConfig>[0]) => {
      const r = toBenchmarkConfig(raw, defaults);
      return r.ok && r.value.config.loader.testRatio;
    };
    expect([
      ratio({ stage: 1, testRatio: 0.3 }),
      ratio({ stage: 2, testRatio: 0.3 }),
      ratio({ stage: 2, stage2TestRatio: 0.1 }),
      ratio({ stage: 3 }),
    ]).toEqual([0, 0, 0.1, 0.2]);
  });

  it('keeps --stage2-test-ratio 0 as no split (maou turned it into 0.2) and notes accepted no-ops', () => {
    const r = toBenchmarkConfig({ stage: 2, stage2TestRatio: 0, inputCacheMode: 'mmap', gceParameter: 0.5 }, defaults);
    if (!r.ok) throw new Error('expected ok');
    expect(r.value.config.loader.testRatio).toBe(0);
    expect(r.value.config.loader.cacheMode).toBe('file');
    expect(r.value.warnings.join('\n')).toMatch(/mmap is deprecated[\s\S]*gce-parameter/);
  });

  it('given no source flag and no registered source that needs none, then the issue says so (no silent default)', () => {
    const r = toBenchmarkConfig({}, { ...defaults, sources: [] });
    expect(r.ok ? [] : r.error).toEqual([
      { field: 'datasource', message: 'no datasource flag given, and no registered datasource needs none' },
    ]);
  });

  it('given --full-epoch, then the batch cap is lifted; the stopping rule takes its flags', () => {
    const full = toBenchmarkConfig({ fullEpoch: true }, defaults);
    if (!full.ok) throw new Error('expected ok');
    expect(full.value.config.maxBatches).toBeNull();
    expect(full.value.config.stopping).toBeUndefined();
    const tuned = toBenchmarkConfig({ targetPrecision: 0.02, timeBudget: 5 }, defaults);
    expect(tuned.ok && tuned.value.config.stopping).toEqual({
      targetPrecision: 0.02,
      timeBudgetMs: 5000,
      capGiven: false,
    });
    const capped = toBenchmarkConfig({ maxBatches: 40 }, defaults);
    expect(capped.ok && [capped.value.config.maxBatches, capped.value.config.stopping?.capGiven]).toEqual([40, true]);
  });

  it('given --trace-path without --enable-profiling, then refused naming both (no trace would be written)', () => {
    expect(issuesOf({ tracePath: 'trace.json' })).toEqual([
      '--trace-path: needs --enable-profiling: the Chrome trace is written only by a profiled run',
    ]);
    expect(toBenchmarkConfig({ tracePath: 'trace.json', enableProfiling: true }, defaults).ok).toBe(true);
  });

  it("given a flag of another datasource (BigQuery's cache budget on S3), then accepted with a note that it has no effect", () => {
    const plugIn = (kind: string, help: string, flags: string[]): SourceChoice => ({
      kind,
      help,
      flags: Object.fromEntries(flags.map((f) => [f, { type: 'number', describe: '' }])),
      selectedBy: [flags[0]!],
      parse: () => ({ warnings: [], spec: { kind, label: kind, sampled: true, streamable: false } }),
    });
    const sources = [
      plugIn('S3', 'Amazon S3', ['input-s3-bucket']),
      plugIn('BigQuery', 'a BigQuery table', ['input-dataset-id', 'input-max-cached-bytes']),
      fallback,
    ];
    const r = toBenchmarkConfig({ inputS3Bucket: 1, inputMaxCachedBytes: 1024 } as RawBenchmarkTrainingOptions, {
      ...defaults,
      sources,
    });
    expect(r.ok && r.value.warnings).toContain(
      '--input-max-cached-bytes has no effect on S3: it applies to a BigQuery table only',
    );
    const own = toBenchmarkConfig({ inputDatasetId: 1, inputMaxCachedBytes: 1024 } as RawBenchmarkTrainingOptions, {
      ...defaults,
      sources,
    });
    expect(own.ok && own.value.warnings.filter((w) => w.includes('no effect'))).toEqual([]);
  });
});
