import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runMaou } from './run-maou';

const dir = mkdtempSync(join(tmpdir(), 'maou-e2e-knobs-'));
const env = { MAOU_BENCH_CACHE: join(dir, 'cache') };
// A two-block ViT: small enough to train in seconds, with enough activations per block that checkpointing shows.
// One thread, so one in-process trainer (the replicas' peak is data-parallel-trainer.spec's).
const tinyVit = [
  'utility',
  'benchmark-training',
  '--sample-positions',
  '256',
  '--model-architecture',
  'vit',
  '--vit-embed-dim',
  '64',
  '--vit-num-layers',
  '2',
  '--vit-num-heads',
  '2',
  '--batch-size',
  '16',
  '--max-batches',
  '3',
  '--warmup-batches',
  '1',
  '--no-calibrate',
  '--log-level',
  'silent',
];

const knobRun = (name: string, knob: string) => {
  const out = join(dir, `${name}.json`);
  const html = join(dir, `${name}.html`);
  const r = runMaou([...tinyVit, knob, '--threads', '1', '--output-json', out, '--report-html', html], env);
  expect(r.stderr).not.toMatch(/maou benchmark-training:/);
  expect(r.code).toBe(0);
  return { stdout: r.stdout, report: JSON.parse(readFileSync(out, 'utf8')), html: readFileSync(html, 'utf8') };
};

describe('benchmark-training: what the model knobs cost, measured in the run (built binary)', () => {
  it('given --gradient-checkpointing, then the report shows a lower peak of live tensors than without it, for the same parameters', () => {
    const { stdout, report, html } = knobRun('checkpointing', '--gradient-checkpointing');
    const k = report.knob_cost;
    expect(k.knobs).toEqual(['--gradient-checkpointing']);
    expect(k.with.setting).toBe('--gradient-checkpointing');
    expect(k.without.setting).toBe('none');
    expect(k.with.trainable_parameters).toBe(k.without.trainable_parameters);
    // Each block keeps only its input: the peak falls (about by half here), the recomputation costs time.
    expect(k.with.peak_tensor_bytes).toBeLessThan(0.8 * k.without.peak_tensor_bytes);
    expect(k.peak_tensor_change).toBeCloseTo(k.with.peak_tensor_bytes / k.without.peak_tensor_bytes - 1, 10);
    expect(k.with.step_ms).toBeGreaterThan(0);
    expect(stdout).toMatch(/Knob cost \(--gradient-checkpointing against none\)/);
    expect(stdout).toMatch(/peak live tensors: \d+ MiB against \d+ MiB \(−\d+\.\d %\)/);
    expect(html).toMatch(/--gradient-checkpointing against none[^]*peak live tensors \d+ MiB vs \d+ MiB \(−[\d.]+ %\)/);
  });

  it('given --freeze-backbone, then backward is a fraction of the unfrozen one and only the heads train', () => {
    const { stdout, report } = knobRun('frozen', '--freeze-backbone');
    const k = report.knob_cost;
    expect(k.knobs).toEqual(['--freeze-backbone']);
    expect(k.with.trainable_parameters).toBe(report.model.trainable_parameters);
    expect(k.without.trainable_parameters).toBe(report.model.parameters);
    expect(k.with.trainable_parameters).toBeLessThan(k.without.trainable_parameters);
    expect(k.with.backward_ms).toBeLessThan(0.5 * k.without.backward_ms);
    expect(k.backward_change).toBeLessThan(-0.5);
    expect(stdout).toMatch(/backward: .* against .* \(−\d+\.\d %\)/);
  });
});

// maou accepts these command lines and ignores what does not apply; a flag it would refuse, or that would only fail
// mid-run, is refused before any work (exit 2, naming the flag).
describe('benchmark-training: flags that do not apply (built binary)', () => {
  const quick = ['--sample-positions', '256', '--batch-size', '16', '--max-batches', '3', '--warmup-batches', '1'];
  const common = [...quick, '--threads', '1', '--no-calibrate', '--log-level', 'silent', '--json'];

  it("given maou's --adaptive-batch at Stage 1 and ViT flags with resnet, then the run trains, its notes saying they have no effect", () => {
    const r = runMaou(
      [
        'utility',
        'benchmark-training',
        '--stage',
        '1',
        '--adaptive-batch',
        '--gradient-checkpointing',
        '--vit-embed-dim',
        '64',
        ...common,
      ],
      env,
    );
    expect(r.stderr).not.toMatch(/maou benchmark-training:/);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.config.notes).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /^--vit-embed-dim, --gradient-checkpointing have no effect with --model-architecture resnet/,
        ),
        expect.stringMatching(/^--adaptive-batch has no effect at Stage 1: it applies to Stage 3 only/),
      ]),
    );
    expect(report.model.preset).toBe('resnet');
  });

  it.each([
    [['--trace-path', join(dir, 'trace.json')], /--trace-path: needs --enable-profiling/],
    [['--model-architecture', 'vit', '--vit-dropout', '1'], /--vit-dropout: must be in \[0, 1\), got 1/],
  ])('given %p, then exit 2 before any work, naming the flag', (flags, message) => {
    const r = runMaou(['utility', 'benchmark-training', ...flags, ...common], env, 60_000);
    expect(r.stderr).toMatch(message);
    expect(r.code).toBe(2);
  });
});

// A network the backend cannot hold is refused before any batch with its figures (it trained for 27 s and ended in
// "memory access out of bounds", or in "Invalid typed array length").
describe('benchmark-training: networks too large for the backend (built binary)', () => {
  const vit = [
    'utility',
    'benchmark-training',
    '--model-architecture',
    'vit',
    '--no-calibrate',
    '--log-level',
    'silent',
  ];

  it('given a ViT whose MLP is 1024× wide on wasm, then exit 1 before any batch naming the flags, parameters and heap', () => {
    const r = runMaou([...vit, '--vit-num-layers', '1', '--vit-mlp-ratio', '1024', '--threads', '1'], env, 60_000);
    expect(r.stderr).toMatch(
      /network-too-large: --model-architecture vit --vit-num-layers 1 --vit-mlp-ratio 1024: 539,300,793 parameters need 8\.0 GiB for weights, gradients and AdamW's two moments, .* the wasm heap of each instance holds 4\.0 GiB: lower --vit-embed-dim/,
    );
    expect(r.code).toBe(1);
  });

  it('given a ViT 65,536 wide and heads (inside the flag ranges) on the cpu backend, then exit 1 naming the tensor past 2^32 values', () => {
    const r = runMaou([...vit, '--vit-embed-dim', '65536', '--vit-num-heads', '65536', '--gpu', 'cpu'], env, 60_000);
    expect(r.stderr).toMatch(
      /network-too-large: --model-architecture vit --vit-embed-dim 65536 --vit-num-heads 65536: an encoder MLP weight would hold 17,179,869,184 values, and a tensor holds at most 4,294,967,296/,
    );
    expect(r.stderr).not.toMatch(/Invalid typed array length/);
    expect(r.code).toBe(1);
  });
});
