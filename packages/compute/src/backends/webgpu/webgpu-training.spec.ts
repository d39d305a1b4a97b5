import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import {
  createTrainer,
  DROPOUT_MASK_KERNEL,
  GELU_GRAD_KERNEL,
  GELU_KERNEL,
  LAYER_NORM_GRAD_KERNEL,
  LAYER_NORM_KERNEL,
  type TfjsTrainer,
} from '@maou/bench-engine';
import type { HostBatch, TrainingConfig } from '@maou/bench-domain';
import { engineGradients, randomBatch, useLavapipe, type EngineGradients } from '@maou/bench-testkit/compute';
import { startWebgpuBackend } from './webgpu-backend.plugin';

const gpu = useLavapipe();
if (!gpu.available) console.warn(`WebGPU training specs skipped: ${gpu.reason}`);

// Plain SGD without momentum or decay: a parameter moves by exactly -lr x its gradient.
const LR = 0.05;
const training: TrainingConfig = {
  preset: 'lite',
  optimizer: 'sgd',
  learningRate: LR,
  momentum: 0,
  beta1: 0.9,
  beta2: 0.999,
  eps: 1e-8,
  weightDecay: 0,
  lrScheduler: 'none',
  policyLossRatio: 1,
  valueLossRatio: 1,
  gradientClip: 0,
  gradientAccumulationSteps: 1,
  detectAnomaly: true,
  stage1PosWeight: 1,
  stage2PosWeight: 1,
  stage2GammaPos: 0,
  stage2GammaNeg: 2,
  stage2Clip: 0.02,
  stage2HiddenDim: 64,
  stage2HeadDropout: 0,
};

function batchOf(size: number): HostBatch {
  const moveLabel = new Float32Array(size * 1496);
  for (let i = 0; i < size; i += 1) moveLabel[i * 1496 + ((i * 373) % 1496)] = 1;
  return {
    stage: 3,
    size,
    boardIds: Int32Array.from({ length: size * 81 }, (_, i) => (i * 7) % 31),
    hands: Float32Array.from({ length: size * 14 }, (_, i) => (i % 3) / 18),
    targets: { stage: 3, moveLabel, resultValue: Float32Array.from({ length: size }, (_, i) => (i % 2 ? 1 : 0)) },
  };
}

const clock = { now: () => performance.now(), wallTime: () => new Date() };

/** One real training step of the engine; returns the loss and every parameter's update (= -lr x gradient). */
async function stepOn(
  backend: 'cpu' | 'webgpu',
  extra: Partial<TrainingConfig> = {},
): Promise<{ loss: number; updates: Float32Array[]; names: string[] }> {
  if (backend === 'webgpu') {
    const started = await startWebgpuBackend({ backend: 'webgpu', deviceIndex: 0, threads: 'auto' });
    if (!started.ok) throw new Error(started.error);
  } else {
    await tf.setBackend('cpu');
  }
  const trainer = createTrainer({
    stage: 3,
    training: { ...training, ...extra },
    totalSteps: 10,
    seed: 3,
  }) as TfjsTrainer;
  const params = trainer.network.store.parameters;
  const before = await Promise.all(params.map((p) => p.variable.data() as Promise<Float32Array>));
  const { loss } = await trainer.step(batchOf(2), clock);
  const after = await Promise.all(params.map((p) => p.variable.data() as Promise<Float32Array>));
  trainer.dispose();
  return { loss, names: params.map((p) => p.name), updates: after.map((a, i) => a.map((v, j) => v - before[i][j])) };
}

(gpu.available ? describe : describe.skip)('engine training step on webgpu (lavapipe without a GPU)', () => {
  afterAll(async () => {
    await tf.setBackend('cpu');
  });

  // A clip far below the gradient's norm scales every update: the global norm sums all 83 gradients' squares, which
  // one addN could not bind on WebGPU.
  it.each([
    ['', {}],
    [' with the gradients clipped by their global norm', { gradientClip: 1e-3 }],
  ] as const)(
    "gives the cpu backend's loss and gradients for every parameter of the lite network%s",
    async (_, extra) => {
      const cpu = await stepOn('cpu', extra);
      const webgpu = await stepOn('webgpu', extra);
      expect(Number.isFinite(webgpu.loss)).toBe(true);
      expect(Math.abs(webgpu.loss - cpu.loss)).toBeLessThan(1e-4 * Math.abs(cpu.loss));
      let moved = 0;
      cpu.updates.forEach((want, i) => {
        const scale = want.reduce((m, v) => Math.max(m, Math.abs(v)), 0);
        const diff = webgpu.updates[i].reduce((m, v, j) => Math.max(m, Math.abs(v - want[j])), 0);
        if (scale > 0) moved += 1;
        // gradients agree to float32 rounding of sums over the batch and the board
        expect({ name: cpu.names[i], ok: diff <= 1e-3 * scale + 1e-7 }).toEqual({ name: cpu.names[i], ok: true });
      });
      expect(moved).toBeGreaterThan(cpu.updates.length / 2);
      // clipped: the whole update is lr × the clip norm long
      const length = Math.sqrt(webgpu.updates.reduce((sum, u) => u.reduce((s, v) => s + v * v, sum), 0));
      if ('gradientClip' in extra) expect(Math.abs(length / (LR * extra.gradientClip) - 1)).toBeLessThan(1e-2);
    },
    // cold shader compiles on lavapipe, beside another jest worker: minutes on a loaded 2-core machine
    600_000,
  );
});

// maou's token backbones at small widths (same layers) on the tfjs-webgpu kernels, which `--gpu webgpu` runs them
// on (the planned step builds only the ResNet presets): loss and every gradient against the cpu backend, per stage.
(gpu.available ? describe : describe.skip)('token backbones on webgpu (lavapipe without a GPU)', () => {
  const FUSED = [GELU_KERNEL, GELU_GRAD_KERNEL, LAYER_NORM_KERNEL, LAYER_NORM_GRAD_KERNEL, DROPOUT_MASK_KERNEL];
  afterAll(async () => {
    await tf.setBackend('cpu');
  });

  const relL2 = (got: Float32Array, want: Float32Array) => {
    let [diff, norm] = [0, 0];
    want.forEach((v, i) => {
      diff += (got[i]! - v) ** 2;
      norm += v * v;
    });
    return Math.sqrt(diff) / Math.max(Math.sqrt(norm), 1e-12);
  };

  it.each(['vit', 'mlp-mixer'] as const)(
    "%s: every stage's loss and every gradient on webgpu match the cpu backend",
    async (preset) => {
      const mixer = { embedDim: 16, tokenDim: 8, channelDim: 32, depth: 1, dropout: 0.1 };
      const vit = { embedDim: 64, numLayers: 1, numHeads: 2, mlpRatio: 1.5, dropout: 0.1 };
      for (const stage of [1, 2, 3] as const) {
        const o = { stage, training: { ...training, preset, vit }, totalSteps: 10, seed: 5 };
        const batch = randomBatch(stage, 3, stage);
        const on = async (backend: 'cpu' | 'webgpu'): Promise<EngineGradients> => {
          if (backend === 'webgpu') {
            const started = await startWebgpuBackend({ backend: 'webgpu', deviceIndex: 0, threads: 'auto' });
            if (!started.ok) throw new Error(started.error);
          } else await tf.setBackend('cpu');
          return engineGradients(o, batch, mixer);
        };
        const cpu = await on('cpu');
        const runs: EngineGradients[] = [];
        // the engine takes the WGSL GELU and layer-norm kernels on webgpu, as on the fast wasm set, and draws the dropout
        // masks there (the same masks as the cpu backend's host ones, or the gradients below would differ)
        const { kernelNames } = await tf.profile(async () => {
          runs.push(await on('webgpu'));
        });
        expect(FUSED.filter((k) => !kernelNames.includes(k))).toEqual([]);
        const webgpu = runs[0]!;
        expect(Math.abs(webgpu.loss - cpu.loss)).toBeLessThan(1e-4 * Math.abs(cpu.loss));
        expect([...webgpu.grads.keys()]).toEqual([...cpu.grads.keys()]);
        // each tensor on its own, so a small layer's gradient cannot hide behind a large one
        const off = [...cpu.grads]
          .map(([name, want]) => ({ stage, name, err: relL2(webgpu.grads.get(name)!, want) }))
          .filter((e) => !(e.err < 1e-3));
        expect(off).toEqual([]);
      }
    },
    // cold shader compiles on lavapipe, beside another jest worker: minutes on a loaded 2-core machine
    600_000,
  );
});
