/**
 * Training throughput of the engine's real step on the WebGPU backend (or cpu, for reference).
 * Prints one JSON line per (preset, batch, kernels) and, with --profile, the kernels that take the time.
 *
 *   pnpm bench:webgpu -- --preset lite,resnet --batch 256 --steps 10 [--step planned|tfjs|both] [--kernels fast|stock|both]
 *     [--profile] [--uploads pooled|stock] [--backend cpu] [--tf-flag WEBGPU_DEFERRED_SUBMIT_BATCH_SIZE=64]
 *     [--loss-every N] [--dispatch-count-only] [--mixed-precision [both]]
 *
 * `--step planned` (the default) runs the planned step (one submission per step, planned/planned-trainer.ts) and
 * `tfjs` the engine's step on tfjs-webgpu; `both` alternates them A/B/A/B. `--dispatch-count-only` prints the
 * planned step's dispatches per step for each preset, stage and batch without a GPU. `--mixed-precision` runs the
 * planned step with f16 activations and loss scaling (needs shader-f16); `--mixed-precision both` alternates
 * f32 and mixed A/B/A/B.
 *
 * Run through scripts/pack-webgpu-bench.cjs, which transpiles the sources it needs with swc (no build).
 */
import 'reflect-metadata';
import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
// Exact source files, not the package entries: the packer then carries only the engine and the plug-in.
// eslint-disable-next-line no-restricted-imports
import { createTrainer } from '../packages/engine/src/tfjs-trainer';
// eslint-disable-next-line no-restricted-imports
import { startWebgpuBackend } from '../packages/infra/src/compute/webgpu/webgpu-backend.plugin';
// eslint-disable-next-line no-restricted-imports
import { planSettings, PlannedWebgpuTrainer } from '../packages/infra/src/compute/webgpu/planned/planned-trainer';
// eslint-disable-next-line no-restricted-imports
import { describeStep } from '../packages/infra/src/compute/webgpu/planned/step-description';

type Preset = 'lite' | 'resnet';
const arg = (name: string, fallback: string): string => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? process.argv[at + 1] : fallback;
};
const flag = (name: string): boolean => process.argv.includes(`--${name}`);
const presets = arg('preset', 'lite').split(',') as Preset[];
const batches = arg('batch', '256').split(',').map(Number);
const steps = Number(arg('steps', '10'));
const warmup = Number(arg('warmup', '3'));
const backendName = arg('backend', 'webgpu');
/** FP32 peak (non-tensor-core) of the GPU, for the percentage; H100 SXM by default. */
const peakTflops = Number(arg('peak-tflops', '67'));

const training = {
  preset: 'lite' as Preset,
  optimizer: 'adamw' as const,
  learningRate: 1e-3,
  momentum: 0.9,
  beta1: 0.9,
  beta2: 0.999,
  eps: 1e-8,
  weightDecay: 1e-4,
  lrScheduler: 'warmup_cosine_decay' as const,
  policyLossRatio: 1,
  valueLossRatio: 1,
  gradientClip: 0,
  gradientAccumulationSteps: 1,
  detectAnomaly: false,
  stage1PosWeight: 1,
  stage2PosWeight: 1,
  stage2GammaPos: 0,
  stage2GammaNeg: 2,
  stage2Clip: 0.02,
  stage2HiddenDim: 512,
  stage2HeadDropout: 0,
};

function syntheticBatch(size: number, seed: number) {
  let s = seed >>> 0;
  const next = (): number => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
  const moveLabel = new Float32Array(size * 1496);
  for (let i = 0; i < size; i += 1) moveLabel[i * 1496 + Math.floor(next() * 1496)] = 1;
  return {
    stage: 3 as const,
    size,
    boardIds: Int32Array.from({ length: size * 81 }, () => Math.floor(next() * 31)),
    hands: Float32Array.from({ length: size * 14 }, () => Math.floor(next() * 3) / 18),
    targets: { stage: 3 as const, moveLabel, resultValue: Float32Array.from({ length: size }, () => next()) },
  };
}

const clock = { now: () => performance.now(), wallTime: () => new Date() };

const lossEvery = Number(arg('loss-every', '1'));
const precisions: boolean[] = !flag('mixed-precision')
  ? [false]
  : arg('mixed-precision', '') === 'both'
    ? [false, true, false, true]
    : [true];

async function run(preset: Preset, batch: number, fast: boolean, step: 'planned' | 'tfjs', mixed = false) {
  const options = {
    stage: 3 as const,
    training: { ...training, preset, mixedPrecision: mixed },
    totalSteps: 10_000,
    seed: 7,
  };
  const reference = createTrainer(options);
  const planned = step === 'planned' ? new PlannedWebgpuTrainer(options, reference, { lossEvery }) : null;
  const trainer = planned ?? reference;
  const data = syntheticBatch(batch, 11);
  const setup0 = performance.now();
  await trainer.step(data, clock);
  const firstStepMs = performance.now() - setup0;
  for (let i = 1; i < warmup; i += 1) await trainer.step(data, clock);
  const times: number[] = [];
  const hostMs: number[] = [];
  let loss = 0;
  const run0 = performance.now();
  for (let i = 0; i < steps; i += 1) {
    const t0 = performance.now();
    const r = await trainer.step(data, clock);
    if (Number.isFinite(r.loss)) loss = r.loss;
    times.push(performance.now() - t0);
    if (planned) hostMs.push(planned.lastHostMs);
  }
  if (planned) {
    const read = await planned.readRing();
    if (read.length > 0) loss = read.at(-1)!;
  }
  const wallPerStep = (performance.now() - run0) / steps;
  times.sort((a, b) => a - b);
  hostMs.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)];
  const samplesPerS = (batch * 1000) / median;
  // forward + backward ≈ 3x the forward multiply-adds, 2 FLOP each
  const tflops = (samplesPerS * trainer.multiplyAddsPerSample * 3 * 2) / 1e12;
  const line: Record<string, unknown> = {
    backend: tf.getBackend(),
    step,
    preset,
    batch,
    ...(planned
      ? {
          precision: mixed ? 'mixed (f16 activations)' : 'f32',
          ...(mixed ? { lossScale: planned.lossScale?.scale, skippedSteps: planned.lossScale?.skippedSteps } : {}),
          dispatchesPerStep: planned.lastDispatchCount,
          hostMsPerStep: +hostMs[Math.floor(hostMs.length / 2)]!.toFixed(2),
          lossEvery,
        }
      : { fastKernels: fast, uploads: arg('uploads', 'pooled') }),
    firstStepMs: +firstStepMs.toFixed(0),
    medianStepMs: +median.toFixed(1),
    meanWallMsPerStep: +wallPerStep.toFixed(1),
    samplesPerS: +samplesPerS.toFixed(1),
    achievedTflops: +tflops.toFixed(3),
    percentOfFp32Peak: +((100 * tflops) / peakTflops).toFixed(2),
    loss: +loss.toFixed(4),
  };
  if (flag('profile') && planned) {
    const { phases } = await planned.profiledStep(data, clock, 0);
    const kernels = phases.flatMap((p) => p.kernels);
    // kinds: the label without the layer's name ("layer2.0.2 filter grad" -> "filter grad")
    const byKind = new Map<string, { ms: number; calls: number }>();
    for (const k of kernels) {
      const kind = k.name.replace(/^layer\d+\.\d+\.(\d|shortcut)(\.bn)? /, '').replace(/^layer\d+\.\d+ /, '');
      const e = byKind.get(kind) ?? { ms: 0, calls: 0 };
      e.ms += k.ms;
      e.calls += 1;
      byKind.set(kind, e);
    }
    line.gpuMsPerStep = +kernels.reduce((m, k) => m + k.ms, 0).toFixed(2);
    line.gpuMsByPhase = Object.fromEntries(
      phases.map((p) => [p.phase, +p.kernels.reduce((m, k) => m + k.ms, 0).toFixed(2)]),
    );
    line.topKernelKinds = [...byKind.entries()]
      .sort((a, b) => b[1].ms - a[1].ms)
      .slice(0, 10)
      .map(([n, e]) => `${n} ${e.ms.toFixed(1)}ms/${e.calls}`);
    line.topKernels = [...kernels]
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 6)
      .map((k) => `${k.name} ${k.ms.toFixed(1)}ms`);
  }
  if (flag('profile') && !planned) {
    const info = await tf.profile(async () => {
      await trainer.step(data, clock);
    });
    const byKernel = new Map<string, { ms: number; calls: number }>();
    for (const k of info.kernels) {
      const e = byKernel.get(k.name) ?? { ms: 0, calls: 0 };
      e.ms += typeof k.kernelTimeMs === 'number' ? k.kernelTimeMs : 0;
      e.calls += 1;
      byKernel.set(k.name, e);
    }
    const top = [...byKernel.entries()].sort((a, b) => b[1].ms - a[1].ms);
    line.kernelsPerStep = info.kernels.length;
    line.kernelMsTotal = +top.reduce((m, [, e]) => m + e.ms, 0).toFixed(1);
    line.topKernels = top.slice(0, 8).map(([n, e]) => `${n} ${e.ms.toFixed(1)}ms/${e.calls}`);
  }
  console.log(JSON.stringify(line));
  trainer.dispose();
}

function dispatchCounts(): void {
  for (const preset of presets) {
    for (const stage of [1, 2, 3] as const) {
      const settings = planSettings({
        stage,
        training: { ...training, preset, gradientClip: 1 },
        totalSteps: 1,
        seed: 1,
      });
      for (const batch of batches)
        console.log(
          JSON.stringify({ preset, stage, batch, dispatchesPerStep: describeStep(settings, batch).dispatches.length }),
        );
    }
  }
}

async function main(): Promise<void> {
  if (flag('dispatch-count-only')) return dispatchCounts();
  const kernels = arg('kernels', 'fast');
  const stepArg = arg('step', 'planned');
  const stepKinds = (stepArg === 'both' ? ['tfjs', 'planned', 'tfjs', 'planned'] : [stepArg]) as ('planned' | 'tfjs')[];
  for (const fast of kernels === 'both' ? [false, true] : [kernels === 'fast']) {
    if (backendName === 'webgpu') {
      const started = await startWebgpuBackend(
        { backend: 'webgpu', deviceIndex: 0, threads: 'auto', mixedPrecision: precisions.includes(true) },
        { fastKernels: fast, pooledUploads: arg('uploads', 'pooled') === 'pooled' },
      );
      if (!started.ok) throw new Error(started.error);
      if (fast) console.log(JSON.stringify({ backendInfo: started.value }));
    } else {
      await tf.setBackend(backendName);
    }
    // WEBGPU_* flags exist only once the backend package is loaded.
    for (const f of process.argv.flatMap((a, i) => (a === '--tf-flag' ? [process.argv[i + 1]] : []))) {
      const [k, v] = f.split('=');
      tf.env().set(k, v === 'true' ? true : v === 'false' ? false : Number(v));
    }
    for (const preset of presets)
      for (const batch of batches)
        for (const kind of stepKinds)
          for (const mixed of kind === 'planned' ? precisions : [false]) await run(preset, batch, fast, kind, mixed);
  }
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
