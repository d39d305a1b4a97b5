/**
 * Stage 3 training throughput of the `lite` network at batch 256: our wasm backend (fast gradient
 * kernels, data-parallel over `--threads` worker replicas, 2 by default like the peer; also timed on 1 thread, and on
 * 2 threads with the WebAssembly convolution kernels instead of the native ones, MAOU_CPU_KERNELS=wasm) vs stock tfjs-wasm (plus only the two kernels it lacks, Conv2DBackpropFilter and
 * UnsortedSegmentSum, without which stock wasm cannot train this network at all: a minimal shim), vs the
 * tfjs cpu backend, vs the PyTorch peer — measured in one run, plus the ratios.
 *
 *   pnpm bench:engine [-- --steps 5 --warmup 2 --batch 256 --threads 2 --cpu-batch 8 --skip torch,cpu,ours-1,ours-wasm
 *                        --peer ../shared/peer/torch_peer.py]
 *
 * Each engine runs in its own child process (kernel registrations are process-global). Every tfjs
 * engine runs the real `createTrainer` step (AdamW, clip 1.0, warmup-cosine LR) on the same synthetic
 * batch generator as the peer's random rows. The cpu backend is timed at a smaller batch (`--cpu-batch`)
 * for a few steps, since a batch-256 step takes minutes there; its samples/s is reported as measured
 * at that batch (per-sample cost on cpu barely depends on the batch size).
 */
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import type * as TfCore from '@tensorflow/tfjs-core';
import { TRAINING_DEFAULTS } from '@maou/bench-domain';
import { createTrainer } from '@maou/bench-engine';
import { cpuKernelSelection, DataParallelTrainer, describeCpuKernels, installWasmKernels } from '@maou/bench-compute';

const repo = path.resolve(__dirname, '..');
const load = createRequire(path.join(repo, 'packages/compute/package.json'));
const arg = (name: string, fallback: string): string => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? process.argv[at + 1] : fallback;
};

interface Measured {
  engine: string;
  batch: number;
  steps: number;
  samplesPerS: number;
  msPerStepMedian: number;
  lossFirst?: number;
  lossLast?: number;
  note?: string;
}

function syntheticBatch(size: number, seed: number) {
  let s = seed >>> 0;
  const rnd = () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 4294967296;
  const boardIds = Int32Array.from({ length: size * 81 }, () => Math.floor(rnd() * 29));
  const hands = Float32Array.from({ length: size * 14 }, () => Math.floor(rnd() * 3));
  const moveLabel = new Float32Array(size * 1496);
  for (let i = 0; i < size; i++) moveLabel[i * 1496 + Math.floor(rnd() * 1496)] = 1;
  const resultValue = Float32Array.from({ length: size }, () => [0, 0.5, 1][Math.floor(rnd() * 3)]);
  return { stage: 3 as const, size, boardIds, hands, targets: { stage: 3 as const, moveLabel, resultValue } };
}

async function child(mode: string): Promise<Measured> {
  const tf = load('@tensorflow/tfjs-core') as typeof TfCore;
  let batch = Number(arg('batch', '256'));
  let steps = Number(arg('steps', '5'));
  let warmup = Number(arg('warmup', '2'));
  if (mode === 'cpu') {
    load('@tensorflow/tfjs-backend-cpu');
    await tf.setBackend('cpu');
    batch = Number(arg('cpu-batch', '8'));
    steps = 2;
    warmup = 1;
  } else {
    load('@tensorflow/tfjs-backend-wasm');
    installWasmKernels(mode.startsWith('ours') ? 'fast' : 'shim-only');
    await tf.setBackend('wasm');
  }
  await tf.ready();
  const training = { ...TRAINING_DEFAULTS, preset: 'lite' as const, learningRate: 1e-3 };
  const threads = mode === 'ours' || mode === 'ours-wasm' ? Number(arg('threads', '2')) : 1;
  const trainer =
    threads > 1
      ? new DataParallelTrainer({ stage: 3, training, totalSteps: 1000, seed: 0 }, threads)
      : createTrainer({ stage: 3, training, totalSteps: 1000, seed: 0 });
  await trainer.ready?.();
  const clock = { now: () => performance.now(), wallTime: () => new Date() };
  const times: number[] = [];
  const losses: number[] = [];
  const phases: Record<string, number> = {};
  for (let i = 0; i < warmup + steps; i++) {
    const b = syntheticBatch(batch, i + 1);
    const t0 = performance.now();
    const r = await trainer.step(b, clock);
    const dt = performance.now() - t0;
    losses.push(r.loss);
    if (i >= warmup) {
      times.push(dt);
      for (const [k, v] of Object.entries(r.phasesMs)) phases[k] = (phases[k] ?? 0) + v / steps;
    }
  }
  const sorted = [...times].sort((a, b) => a - b);
  const total = times.reduce((a, b) => a + b, 0);
  const phaseNote = Object.entries(phases)
    .map(([k, v]) => `${k} ${v.toFixed(0)}`)
    .join(', ');
  trainer.dispose();
  const kernels = mode.startsWith('ours') ? `; ${describeCpuKernels(cpuKernelSelection())}` : '';
  return {
    engine: threads > 1 ? `${mode} (${threads} threads)` : mode,
    batch,
    steps,
    samplesPerS: (batch * steps * 1000) / total,
    msPerStepMedian: sorted[Math.floor(sorted.length / 2)],
    lossFirst: losses[0],
    lossLast: losses[losses.length - 1],
    note: `ms/step by phase: ${phaseNote}${kernels}`,
  };
}

function runChild(mode: string): Measured {
  // ours-wasm: the WebAssembly convolution kernels (the fallback where the native ones are not built).
  const env = mode === 'ours-wasm' ? { ...process.env, MAOU_CPU_KERNELS: 'wasm' } : process.env;
  const out = execFileSync(
    process.execPath,
    [...process.execArgv, __filename, '--child', mode, ...process.argv.slice(2)],
    { encoding: 'utf8', env, stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 1 << 24 },
  );
  return JSON.parse(out.trim().split('\n').pop()!) as Measured;
}

function runTorch(batch: number): Measured {
  const warmup = 5;
  const batches = 20;
  const out = execFileSync(
    'python3',
    [
      path.resolve(arg('peer', path.join(repo, '../shared/peer/torch_peer.py'))),
      '--preset',
      'lite',
      '--batch-size',
      String(batch),
      '--threads',
      '2',
      '--rows',
      String(batch * (warmup + batches + 1)),
      '--warmup-batches',
      String(warmup),
      '--batches',
      String(batches),
    ],
    { encoding: 'utf8' },
  );
  const r = JSON.parse(out.trim().split('\n').pop()!) as {
    engine: string;
    train_samples_per_s: number;
    train_ms_per_batch_median: number;
    loss_first: number;
    loss_last: number;
    parameters: number;
  };
  return {
    engine: `torch peer (${r.engine}, 2 threads)`,
    batch,
    steps: batches,
    samplesPerS: r.train_samples_per_s,
    msPerStepMedian: r.train_ms_per_batch_median,
    lossFirst: r.loss_first,
    lossLast: r.loss_last,
    note: `${r.engine}, 2 threads, parameters ${r.parameters}`,
  };
}

async function main(): Promise<void> {
  const childMode = arg('child', '');
  if (childMode) {
    process.stdout.write(`${JSON.stringify(await child(childMode))}\n`);
    return;
  }
  const skip = new Set(arg('skip', '').split(','));
  const batch = Number(arg('batch', '256'));
  const rows: Measured[] = [];
  const record = (m: Measured) => {
    rows.push(m);
    console.log(JSON.stringify(m));
  };
  // The peer runs before and after the tfjs engines: its 2 OpenMP threads collapse (up to 10×) when
  // anything else takes a core, so two runs expose a busy machine, and the ratio uses the faster one.
  if (!skip.has('torch')) record({ ...runTorch(batch), engine: 'torch peer, before' });
  for (const mode of ['ours', 'ours-wasm', 'ours-1', 'stock', 'cpu']) if (!skip.has(mode)) record(runChild(mode));
  if (!skip.has('torch')) record({ ...runTorch(batch), engine: 'torch peer, after' });
  const torch = rows.filter((r) => r.engine.startsWith('torch')).map((r) => r.samplesPerS);
  const by = (e: string) =>
    e === 'torch'
      ? torch.length
        ? Math.max(...torch)
        : undefined
      : rows.find((r) => r.engine === e || r.engine.startsWith(`${e} (`))?.samplesPerS;
  const ours = by('ours');
  console.log('\nengine                     batch  samples/s   ms/step(median)');
  for (const r of rows)
    console.log(
      `${r.engine.padEnd(26)} ${String(r.batch).padStart(5)} ${r.samplesPerS.toFixed(2).padStart(10)} ${r.msPerStepMedian.toFixed(0).padStart(12)}`,
    );
  for (const r of rows.filter((x) => x.engine.startsWith('ours')))
    console.log(`${r.engine}: ${r.note?.split('; ')[1] ?? ''}`);
  if (ours !== undefined) {
    const ratio = (name: string, other?: number, bar?: number) =>
      other !== undefined &&
      console.log(
        `ours / ${name}: ${(ours / other).toFixed(2)}×${bar ? ` (bar ≥ ${bar}×: ${ours / other >= bar ? 'met' : 'NOT met'})` : ''}`,
      );
    ratio('stock tfjs-wasm (+ minimal shim of its 2 missing kernels)', by('stock'), 3);
    ratio('ours with the WebAssembly convolution kernels', by('ours-wasm'));
    ratio('ours on 1 thread', by('ours-1'));
    ratio('tfjs cpu', by('cpu'));
    ratio('PyTorch peer (faster of its two runs)', by('torch'), 0.5);
  }
}

void main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
