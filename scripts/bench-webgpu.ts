/**
 * Training throughput of the engine's real step on the WebGPU backend (or cpu, for reference).
 * Prints one JSON line per (preset, batch, kernels) and, with --profile, the kernels that take the time.
 *
 *   pnpm bench:webgpu -- --preset lite,resnet --batch 256 --steps 10 [--step planned|tfjs|both] [--kernels fast|stock|both]
 *     [--profile] [--uploads pooled|stock] [--backend cpu] [--tf-flag WEBGPU_DEFERRED_SUBMIT_BATCH_SIZE=64]
 *     [--loss-every N] [--dispatch-count-only] [--mixed-precision [both]] [--check-gradients [--reference-cpu] [--repeat]] [--gradient-clip N]
 *
 * `--step planned` (the default) runs the planned step (one submission per step, planned/planned-trainer.ts) and
 * `tfjs` the engine's step on tfjs-webgpu; `both` alternates them A/B/A/B. `--dispatch-count-only` prints the
 * planned step's dispatches per step for each preset, stage and batch without a GPU. `--mixed-precision` runs the
 * planned step with f16 activations and loss scaling (needs shader-f16); `--mixed-precision both` alternates
 * f32 and mixed A/B/A/B. `--check-gradients` compares the planned step's first loss and gradients with the engine's
 * tape on the tfjs-webgpu path instead of timing. `--profile` adds each kernel kind's GPU time with its roofline
 * (planned/roofline.ts); percentages of peak use the data-sheet peaks of the adapter's GPU (none for lavapipe).
 * On the tfjs path a line counts the GPU dispatches per step (`dispatchesPerStep`), and `--profile` the kernel calls
 * of one step; `--kernels stock` there also leaves GELU and layer norm to the engine's composed ops (vit, mlp-mixer).
 * `pnpm bench:gpu` (scripts/bench-gpu.ts) runs this script once per row with a time limit and prints one table.
 *
 * Run through scripts/pack-webgpu-bench.cjs, which transpiles the sources it needs with swc (no build).
 */
import 'reflect-metadata';
import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
// By name: the engine, the compute package's WebGPU entry and the test kit's gradients, so the packer carries only
// these and not the other backends.
import { createTrainer, type TfjsTrainer } from '@maou/bench-engine';
import {
  describeStep,
  dispatchCost,
  gpuPeak,
  type GpuPeak,
  kernelKind,
  planSettings,
  PlannedWebgpuTrainer,
  startWebgpuBackend,
} from '@maou/bench-compute/webgpu';
import { type EngineGradients, engineGradients, gradientErrors, gradientL2Errors } from '@maou/bench-testkit/gradients';

/** The token backbones run only on the tfjs path (`--step tfjs`): the planned step builds the ResNet presets. */
type Preset = 'lite' | 'resnet' | 'vit' | 'mlp-mixer';
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
/** Data-sheet peaks of the adapter's GPU (set once the backend has started; null for unknown GPUs and lavapipe). */
let peak: GpuPeak | null = null;
const percentOf = (value: number, of: number | undefined): number | null =>
  of ? +((100 * value) / of).toFixed(2) : null;

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
  // maou's default is 1; off unless asked, as the rows timed before this flag
  gradientClip: Number(arg('gradient-clip', '0')),
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
  const reference = createTrainer(options) as TfjsTrainer;
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
  const cpu0 = process.cpuUsage();
  const dispatches = await countDispatches(async () => {
    for (let i = 0; i < steps; i += 1) {
      const t0 = performance.now();
      const r = await trainer.step(data, clock);
      if (Number.isFinite(r.loss)) loss = r.loss;
      times.push(performance.now() - t0);
      if (planned) hostMs.push(planned.lastHostMs);
    }
  });
  if (planned) {
    const read = await planned.readRing();
    if (read.length > 0) loss = read.at(-1)!;
  }
  const wallPerStep = (performance.now() - run0) / steps;
  // this process's CPU time, lavapipe's threads included: steadier than wall time on a shared machine
  const cpu = process.cpuUsage(cpu0);
  const cpuMsPerStep = (cpu.user + cpu.system) / 1000 / steps;
  times.sort((a, b) => a - b);
  hostMs.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)];
  const samplesPerS = (batch * 1000) / median;
  // forward + backward ≈ 3x the forward multiply-adds, 2 FLOP each (the model FLOPs PyTorch's row uses too)
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
      : {
          fastKernels: fast,
          uploads: arg('uploads', 'pooled'),
          ...(dispatches === null
            ? {}
            : {
                dispatchesPerStep: dispatches.dispatches / steps,
                pipelinesPerStep: dispatches.pipelines / steps,
                buffersPerStep: dispatches.buffers / steps,
                bufferMbPerStep: +(dispatches.bufferBytes / steps / 1e6).toFixed(1),
              }),
        }),
    firstStepMs: +firstStepMs.toFixed(0),
    medianStepMs: +median.toFixed(1),
    meanWallMsPerStep: +wallPerStep.toFixed(1),
    cpuMsPerStep: +cpuMsPerStep.toFixed(0),
    samplesPerS: +samplesPerS.toFixed(1),
    multiplyAddsPerSample: trainer.multiplyAddsPerSample,
    achievedTflops: +tflops.toFixed(3),
    percentOfFp32Peak: percentOf(tflops, peak?.fp32Tflops),
    percentOfFp16TensorPeak: percentOf(tflops, peak?.fp16TensorTflops),
    loss: +loss.toFixed(4),
  };
  if (flag('profile') && planned) {
    const { phases } = await planned.profiledStep(data, clock, 0);
    line.gpuMsPerStep = +phases.reduce((m, p) => m + p.kernels.reduce((n, k) => n + k.ms, 0), 0).toFixed(2);
    line.gpuMsByPhase = Object.fromEntries(
      phases.map((p) => [p.phase, +p.kernels.reduce((m, k) => m + k.ms, 0).toFixed(2)]),
    );
    line.kernels = kernelRoofline(
      describeStep(planSettings(options), batch),
      phases.flatMap((p) => p.kernels),
    );
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

/**
 * tfjs-backend-webgpu's dispatches while `f` runs (each program it runs is recorded once, in recordAndSubmit; the
 * planned step's own passes are not counted here), and the compute pipelines created meanwhile: in steady state a
 * step should find every shader in the cache, so pipelines made in the timed steps mean compiling again. Null on
 * another backend.
 */
interface DeviceCounts {
  dispatches: number;
  pipelines: number;
  /** GPU buffers created, and their bytes: Dawn zero-fills each new buffer, so a step that makes them pays for it */
  buffers: number;
  bufferBytes: number;
}

async function countDispatches(f: () => Promise<void>): Promise<DeviceCounts | null> {
  const backend = tf.backend() as unknown as {
    recordAndSubmit?: (...args: unknown[]) => unknown;
    device?: Record<string, unknown>;
  };
  const record = backend.recordAndSubmit;
  if (tf.getBackend() !== 'webgpu' || typeof record !== 'function' || !backend.device) {
    await f();
    return null;
  }
  const device = backend.device;
  const counts: DeviceCounts = { dispatches: 0, pipelines: 0, buffers: 0, bufferBytes: 0 };
  backend.recordAndSubmit = (...args: unknown[]) => {
    counts.dispatches += 1;
    return record.apply(backend, args);
  };
  const makers = ['createComputePipeline', 'createComputePipelineAsync', 'createBuffer'].map((name) => {
    const original = device[name] as (...args: unknown[]) => unknown;
    device[name] = (...args: unknown[]) => {
      if (name === 'createBuffer') {
        counts.buffers += 1;
        counts.bufferBytes += (args[0] as { size: number }).size;
      } else counts.pipelines += 1;
      return original.apply(device, args);
    };
    return [name, original] as const;
  });
  try {
    await f();
  } finally {
    backend.recordAndSubmit = record;
    for (const [name, original] of makers) device[name] = original;
  }
  return counts;
}

/** GPU time per kernel kind of one profiled step with its FLOPs, bytes and the fraction of the peaks they reach. */
function kernelRoofline(step: ReturnType<typeof describeStep>, kernels: readonly { name: string; ms: number }[]) {
  if (kernels.length !== step.dispatches.length) throw new Error('profile: the plan and the timestamps disagree');
  const byKind = new Map<string, { ms: number; calls: number; flops: number; bytes: number; exact: boolean }>();
  kernels.forEach((k, i) => {
    const d = step.dispatches[i]!;
    if (d.label !== k.name) throw new Error(`profile: dispatch ${i} is ${k.name}, the plan says ${d.label}`);
    const cost = dispatchCost(d, step);
    const kind = kernelKind(d.label);
    const e = byKind.get(kind) ?? { ms: 0, calls: 0, flops: 0, bytes: 0, exact: cost.exact };
    byKind.set(kind, {
      ms: e.ms + k.ms,
      calls: e.calls + 1,
      flops: e.flops + cost.flops,
      bytes: e.bytes + cost.bytes,
      exact: cost.exact,
    });
  });
  return [...byKind.entries()]
    .sort((a, b) => b[1].ms - a[1].ms)
    .map(([kind, e]) => {
      const tflops = e.flops / (e.ms * 1e9);
      const tbps = e.bytes / (e.ms * 1e9);
      return {
        kind,
        calls: e.calls,
        ms: +e.ms.toFixed(3),
        gflop: +(e.flops / 1e9).toFixed(3),
        flopsExact: e.exact,
        mb: +(e.bytes / 1e6).toFixed(2),
        tflops: +tflops.toFixed(3),
        gbps: +(1000 * tbps).toFixed(1),
        percentOfFp32Peak: percentOf(tflops, peak?.fp32Tflops),
        percentOfBandwidth: percentOf(tbps, peak?.memoryTBps),
        // the roofline: compute-bound when its FLOPs per byte exceed the GPU's peak FLOPs per byte
        bound: peak
          ? e.flops / e.bytes > (1000 * peak.fp32Tflops) / (1000 * peak.memoryTBps)
            ? 'compute'
            : 'memory'
          : null,
      };
    });
}

/**
 * The planned step's first loss and gradients against the engine's tape on the tfjs-webgpu path (same weights,
 * same batch), so a kernel that is right on lavapipe but wrong on a GPU shows. Measures and bounds as planned-step.spec
 * (f32: largest difference over largest element) and mixed-precision.spec (f16: relative L2 error per tensor).
 */
async function checkGradients(preset: Preset, batch: number, mixed: boolean): Promise<void> {
  const options = {
    stage: 3 as const,
    training: { ...training, preset, mixedPrecision: mixed },
    totalSteps: 10_000,
    seed: 7,
  };
  const data = syntheticBatch(batch, 11);
  const want = await engineGradients(options, data);
  // `--reference-cpu`: the engine on tfjs's cpu backend as a third opinion, when planned and tfjs-webgpu disagree
  const cpu = flag('reference-cpu') ? await onCpu(() => engineGradients(options, data)) : undefined;
  // PyTorch's initial loss scale; G holds the gradients times the scale the step ran with
  const scale = mixed ? 65_536 : 1;
  const { loss, G, offsets, skippedSteps } = await plannedGradients(options, data, scale);
  const errors = errorSummary((mixed ? gradientL2Errors : gradientErrors)(want, G, offsets));
  const lossRelDiff = Math.abs(loss - want.loss) / Math.abs(want.loss);
  const bounds = mixed ? { loss: 1e-3, gradient: 0.5 } : { loss: 1e-4, gradient: 2e-3 };
  console.log(
    JSON.stringify({
      check: 'gradients',
      preset,
      batch,
      precision: mixed ? 'mixed' : 'f32',
      lossTfjs: want.loss,
      lossPlanned: loss,
      lossRelDiff: +lossRelDiff.toExponential(2),
      measure: mixed ? 'relative L2' : 'largest difference / largest element',
      maxGradientErr: errors.worst,
      worstParameter: errors.parameter,
      medianGradientErr: errors.median,
      parameters: errors.parameters,
      bounds,
      ...(mixed ? { lossScale: scale, skippedSteps } : {}),
      ...(cpu ? againstCpu(cpu, want, G, offsets, mixed) : {}),
      ...(flag('repeat') ? await repeatability(options, data, want, { loss, G, offsets }, scale, mixed) : {}),
      ok: lossRelDiff < bounds.loss && errors.worstExact < bounds.gradient && skippedSteps === 0,
    }),
  );
}

type CheckOptions = Parameters<typeof engineGradients>[0];

/** One planned step from the engine's initial weights: its loss and every gradient, unscaled. */
async function plannedGradients(options: CheckOptions, data: ReturnType<typeof syntheticBatch>, scale: number) {
  const planned = new PlannedWebgpuTrainer(options, createTrainer(options) as TfjsTrainer, {
    lossEvery: 1,
    initialLossScale: scale,
  });
  try {
    const { loss } = await planned.step(data, clock);
    const G = (await planned.read('G')).map((g) => g / scale);
    return { loss, G, offsets: planned.parameterOffsets(), skippedSteps: planned.lossScale?.skippedSteps ?? 0 };
  } finally {
    planned.dispose();
  }
}

/**
 * `--repeat`: each path run a second time on the same weights and batch. The planned step is deterministic (no
 * atomics, split sums added in chunk order), so a difference there is a race in one of its kernels, which a GPU shows
 * and lavapipe may not. The tfjs-webgpu tape need not be (0.27 % apart from itself at resnet 256 on an H200).
 */
async function repeatability(
  options: CheckOptions,
  data: ReturnType<typeof syntheticBatch>,
  tfjs: EngineGradients,
  first: { loss: number; G: Float32Array; offsets: ReadonlyMap<string, number> },
  scale: number,
  mixed: boolean,
): Promise<Record<string, unknown>> {
  const measure = mixed ? gradientL2Errors : gradientErrors;
  const again = await plannedGradients(options, data, scale);
  const tfjsAgain = await engineGradients(options, data);
  const { worst, parameter } = errorSummary(
    measure({ loss: first.loss, grads: gradsOf(first.G, first.offsets, tfjs), running: [] }, again.G, again.offsets),
  );
  const tfjsRepeat = errorSummary(measure(tfjs, flatGrads(tfjsAgain, again.offsets, first.G.length), again.offsets));
  return {
    plannedRepeat: { worst, parameter, lossSame: again.loss === first.loss },
    tfjsWebgpuRepeat: {
      worst: tfjsRepeat.worst,
      parameter: tfjsRepeat.parameter,
      lossSame: tfjsAgain.loss === tfjs.loss,
    },
  };
}

/** The tape's per-parameter gradients laid out as the planned step's flat buffer G. */
function flatGrads(e: EngineGradients, offsets: ReadonlyMap<string, number>, length: number): Float32Array {
  const flat = new Float32Array(length);
  for (const [name, g] of e.grads) flat.set(g, offsets.get(name)!);
  return flat;
}

/** A flat gradient buffer as the per-parameter map `gradientErrors` takes as its reference (flatGrads' inverse). */
function gradsOf(G: Float32Array, offsets: ReadonlyMap<string, number>, like: EngineGradients) {
  const grads = new Map<string, Float32Array>();
  for (const [name, g] of like.grads) grads.set(name, G.subarray(offsets.get(name)!, offsets.get(name)! + g.length));
  return grads;
}

async function onCpu<T>(run: () => Promise<T>): Promise<T> {
  await tf.setBackend('cpu');
  try {
    return await run();
  } finally {
    await tf.setBackend('webgpu');
  }
}

/** The planned step and the tfjs-webgpu tape, each against the engine on cpu: worst and median error. */
function againstCpu(
  cpu: EngineGradients,
  tfjs: EngineGradients,
  planned: Float32Array,
  offsets: ReadonlyMap<string, number>,
  mixed: boolean,
): Record<string, unknown> {
  const measure = mixed ? gradientL2Errors : gradientErrors;
  const summary = (errors: { name: string; err: number }[]) => {
    const { worst, parameter, median } = errorSummary(errors);
    return { worst, parameter, median };
  };
  return {
    lossCpu: cpu.loss,
    plannedVsCpu: summary(measure(cpu, planned, offsets)),
    tfjsWebgpuVsCpu: summary(measure(cpu, flatGrads(tfjs, offsets, planned.length), offsets)),
  };
}

/** The worst parameter's gradient error (exact, and to 3 digits for the line), and the median over parameters. */
function errorSummary(errors: readonly { name: string; err: number }[]) {
  const sorted = [...errors].sort((a, b) => b.err - a.err);
  return {
    worstExact: sorted[0]!.err,
    worst: +sorted[0]!.err.toExponential(2),
    parameter: sorted[0]!.name,
    median: +sorted[Math.floor(sorted.length / 2)]!.err.toExponential(2),
    parameters: sorted.length,
  };
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
      peak = gpuPeak(started.value.gpuAdapter?.device ?? '');
      if (fast) console.log(JSON.stringify({ backendInfo: started.value, peak }));
    } else {
      await tf.setBackend(backendName);
    }
    // WEBGPU_* flags exist only once the backend package is loaded.
    for (const f of process.argv.flatMap((a, i) => (a === '--tf-flag' ? [process.argv[i + 1]] : []))) {
      const [k, v] = f.split('=');
      tf.env().set(k, v === 'true' ? true : v === 'false' ? false : Number(v));
    }
    if (flag('check-gradients')) {
      for (const preset of presets)
        for (const batch of batches)
          for (const mixed of new Set(precisions)) await checkGradients(preset, batch, mixed);
      continue;
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
