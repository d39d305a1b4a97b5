import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import {
  ADAMW_KERNEL,
  CLIP_BY_GLOBAL_NORM_KERNEL,
  DROPOUT_MASK_KERNEL,
  GELU_GRAD_KERNEL,
  GELU_KERNEL,
  hasKernel,
  LAYER_NORM_GRAD_KERNEL,
  LAYER_NORM_KERNEL,
} from '@maou/bench-engine';
import { DROPOUT_MASK_CASES, kernelAndHostMask, relErr, useLavapipe } from '@maou/bench-testkit/compute';
import { startWebgpuBackend } from './webgpu-backend.plugin';

// The WGSL GELU, layer-norm, AdamW and global-norm clipping kernels against the composite tfjs ops they replace, run
// on the cpu backend (the dropout mask against the engine's host mask): every output of both directions, at the token
// backbones' widths (reduced) and odd ones. MAOU_GPU_FULL=1 adds maou's widths at a real row count.
const gpu = useLavapipe();
if (!gpu.available) console.warn(`WebGPU fused-kernel specs skipped: ${gpu.reason}`);
const FULL = process.env.MAOU_GPU_FULL === '1';

/** maou's LayerNorm eps (torch's default), which the engine passes. */
const EPS = 1e-5;
const KERNELS = [
  GELU_KERNEL,
  GELU_GRAD_KERNEL,
  LAYER_NORM_KERNEL,
  LAYER_NORM_GRAD_KERNEL,
  ADAMW_KERNEL,
  CLIP_BY_GLOBAL_NORM_KERNEL,
  DROPOUT_MASK_KERNEL,
];

const rand = (n: number, seed: number, lo = -1, hi = 1) =>
  tf.tidy(() => tf.randomUniform([n], lo, hi, 'float32', seed).dataSync() as Float32Array);

const startWebgpu = async (fastKernels = true) => {
  const started = await startWebgpuBackend({ backend: 'webgpu', deviceIndex: 0, threads: 'auto' }, { fastKernels });
  if (!started.ok) throw new Error(started.error);
};

/** Runs `f` on a backend and reads every output back. */
async function on(backend: 'cpu' | 'webgpu', f: () => tf.Tensor[]): Promise<Float32Array[]> {
  if (backend === 'webgpu') await startWebgpu();
  else await tf.setBackend('cpu');
  const outs = tf.tidy(f);
  const values = await Promise.all(outs.map((t) => t.data() as Promise<Float32Array>));
  tf.dispose(outs);
  return values;
}

const worst = (names: string[], ref: Float32Array[], got: Float32Array[], bound: number) =>
  got.map((g, i) => ({ name: names[i], err: relErr(ref[i]!, g) })).filter((e) => !(e.err < bound));

(gpu.available ? describe : describe.skip)(
  'GELU, layer norm, AdamW and clipping as WGSL kernels (lavapipe without a GPU)',
  () => {
    afterAll(async () => {
      await tf.setBackend('cpu');
    });

    // Both tails of Φ, ±0 and tiny inputs at the sign switch lead the data; 4099 is not a multiple of the workgroup.
    it.each([13, 4099, ...(FULL ? [16 * 81 * 1024] : [])])(
      'GELU over %i values: y, Φ(x) and dx match the composite ops on cpu',
      async (count) => {
        const xs = rand(count, count, -12, 12);
        [0, -0, 1e-30, -1e-30, -200, 200, -5, 5].slice(0, count).forEach((v, i) => (xs[i] = v));
        const dys = rand(count, count + 1);
        const ref = await on('cpu', () => {
          const [x, dy] = [tf.tensor(xs), tf.tensor(dys)];
          const cdf = tf.mul(tf.add(tf.erf(tf.mul(x, Math.SQRT1_2)), 1), 0.5);
          const pdf = tf.mul(tf.exp(tf.mul(tf.square(x), -0.5)), 1 / Math.sqrt(2 * Math.PI));
          return [tf.mul(x, cdf), cdf, tf.mul(dy, tf.add(cdf, tf.mul(x, pdf)))];
        });
        const got = await on('webgpu', () => {
          const [x, dy] = [tf.tensor(xs), tf.tensor(dys)];
          const [y, cdf] = tf.engine().runKernel(GELU_KERNEL, { x }) as tf.Tensor[];
          return [y!, cdf!, tf.engine().runKernel(GELU_GRAD_KERNEL, { dy, x, cdf: cdf! }) as tf.Tensor];
        });
        // the same erf as the reference (Abramowitz–Stegun): float32 rounding apart
        expect(worst(['y', 'cdf', 'dx'], ref, got, 1e-5)).toEqual([]);
      },
      120_000,
    );

    // The mixer's widths in specs (16) and maou's (64, 256) and the ViT's; widths below and above the 64 invocations of
    // a row; 300 rows span the column sums' lanes unevenly; data off zero tests the centring. Rows of nearly equal
    // values (variance 3e-7, below eps) make rstd depend on eps itself. Full width only (4-5 s on lavapipe): 66,000 rows
    // pass WebGPU's 65,535 workgroups per dimension, so tfjs spreads the row dispatch over two (batch 810 and up at 81
    // tokens), and maou's mixer and ViT widths at batch 256 and 64.
    it.each([
      [[3, 81, 16], 0, 1],
      [[300, 64], 3, 1],
      [[5, 7], 0, 1],
      [[4, 259], -2, 1],
      [[6, 33], 0, 1e-3],
      ...(FULL
        ? [[[66_000, 4], 0, 1] as const, [[256 * 81, 256], 0, 1] as const, [[64 * 81, 512], 1, 1] as const]
        : []),
    ] as [number[], number, number][])(
      'layer norm of x %j (offset %d, spread %d): y, xhat, rstd and all three gradients match the composite ops on cpu',
      async (shape, offset, spread) => {
        const c = shape[shape.length - 1]!;
        const n = shape.reduce((a, b) => a * b, 1);
        const xs = rand(n, 1, offset - spread, offset + spread);
        const [gs, bs, dys] = [rand(c, 2, 0.5, 1.5), rand(c, 3), rand(n, 4)];
        const make = () => [tf.tensor(xs, shape), tf.tensor(gs), tf.tensor(bs), tf.tensor(dys, shape)] as const;
        const ref = await on('cpu', () => {
          const [x, gamma, beta, dy] = make();
          const centred = tf.sub(x, tf.mean(x, -1, true));
          const rstd = tf.rsqrt(tf.add(tf.mean(tf.square(centred), -1, true), EPS));
          const xhat = tf.mul(centred, rstd);
          const g = tf.mul(dy, gamma);
          const mean = (t: tf.Tensor) => tf.mean(t, -1, true);
          const dx = tf.mul(rstd, tf.sub(tf.sub(g, mean(g)), tf.mul(xhat, mean(tf.mul(g, xhat)))));
          const rows = (t: tf.Tensor) => tf.sum(tf.reshape(t, [-1, c]), 0);
          return [tf.add(tf.mul(xhat, gamma), beta), xhat, rstd, dx, rows(tf.mul(dy, xhat)), rows(dy)];
        });
        const got = await on('webgpu', () => {
          const [x, gamma, beta, dy] = make();
          const [y, xhat, rstd] = tf
            .engine()
            .runKernel(LAYER_NORM_KERNEL, { x, gamma, beta }, { eps: EPS }) as tf.Tensor[];
          const grads = tf.engine().runKernel(LAYER_NORM_GRAD_KERNEL, { dy, xhat: xhat!, rstd: rstd!, gamma });
          return [y!, xhat!, rstd!, ...(grads as tf.Tensor[])];
        });
        expect(got.map((g) => g.length)).toEqual(ref.map((r) => r.length));
        // sums over up to 66,000 rows in float32, in another order than the reference's
        const bound = n > 100_000 ? 1e-4 : 1e-5;
        expect(worst(['y', 'xhat', 'rstd', 'dx', 'dGamma', 'dBeta'], ref, got, bound)).toEqual([]);
      },
      120_000,
    );

    // Three updates in a row (the bias corrections change with the step), with and without weight decay.
    it.each([
      [[3, 37], 0.01],
      [[4099], 0],
    ] as [number[], number][])(
      'AdamW of a %j parameter (weight decay %d), three steps: param, m and v match the composite ops on cpu',
      async (shape, weightDecay) => {
        const n = shape.reduce((a, b) => a * b, 1);
        const [lr, beta1, beta2, eps] = [1e-3, 0.9, 0.999, 1e-8];
        const start = rand(n, 5);
        const grads = [6, 7, 8].map((seed) => rand(n, seed, -0.1, 0.1));
        const steps = (fused: boolean) => () => {
          let [p, m, v] = [tf.tensor(start, shape), tf.zeros(shape), tf.zeros(shape)];
          grads.forEach((values, i) => {
            const [g, step] = [tf.tensor(values, shape), i + 1];
            if (fused) {
              const attrs = { lr, beta1, beta2, eps, weightDecay, step };
              [p, m, v] = tf.engine().runKernel(ADAMW_KERNEL, { param: p, grad: g, m, v }, attrs) as tf.Tensor[];
              return;
            }
            // the engine's optimiser without the kernel (optim/optimizer.ts)
            m = tf.add(tf.mul(m, beta1), tf.mul(g, 1 - beta1));
            v = tf.add(tf.mul(v, beta2), tf.mul(tf.square(g), 1 - beta2));
            const decayed = weightDecay > 0 ? tf.mul(p, 1 - lr * weightDecay) : p;
            const update = tf.div(m, tf.add(tf.div(tf.sqrt(v), Math.sqrt(1 - beta2 ** step)), eps));
            p = tf.sub(decayed, tf.mul(update, lr / (1 - beta1 ** step)));
          });
          return [p!, m!, v!];
        };
        const ref = await on('cpu', steps(false));
        const got = await on('webgpu', steps(true));
        expect(worst(['param', 'm', 'v'], ref, got, 1e-5)).toEqual([]);
      },
    );

    // Nine gradients (more than one shader may bind), one of a single value and one of 70,000; a norm far above the
    // gradients' (nothing clipped) and one far below.
    it.each([1e-3, 1e6])(
      'global-norm clipping of nine gradients to %d matches the composite ops on cpu',
      async (maxNorm) => {
        const sizes = [1, 7, 37, 64, 300, 1000, 4099, 70_000, 3];
        const values = sizes.map((n, i) => rand(n, 20 + i, -0.5, 0.5));
        const grads = () => values.map((v) => tf.tensor(v));
        const ref = await on('cpu', () => {
          const gs = grads();
          const norm = tf.sqrt(tf.addN(gs.map((g) => tf.sum(tf.square(g)))));
          const coef = tf.minimum(tf.div(maxNorm, tf.add(norm, 1e-6)), 1);
          return gs.map((g) => tf.mul(g, coef));
        });
        const got = await on('webgpu', () => {
          const inputs = Object.fromEntries(grads().map((g, i) => [`g${i}`, g]));
          return tf.engine().runKernel(CLIP_BY_GLOBAL_NORM_KERNEL, inputs, { maxNorm }) as tf.Tensor[];
        });
        expect(worst(sizes.map(String), ref, got, 1e-5)).toEqual([]);
        if (maxNorm > 1) expect(got).toEqual(values);
      },
    );

    // The mask's u32 hash on the device against the engine's on the host: equal bit for bit, so a backend drawing masks
    // on the host (cpu) and webgpu train on the same ones.
    it.each(DROPOUT_MASK_CASES)(
      'dropout mask %j at rate %d, seed %d: the host mask exactly',
      async (shape, rate, seed) => {
        await startWebgpu();
        const { kernel, host } = await kernelAndHostMask(shape, rate, seed);
        expect(kernel).toEqual(host);
      },
    );

    it('are registered on webgpu with the fast kernels and gone without them; bad inputs are refused by name', async () => {
      await startWebgpu(false);
      expect(KERNELS.filter(hasKernel)).toEqual([]);
      await startWebgpu(true);
      expect(KERNELS.filter(hasKernel)).toEqual(KERNELS);
      const before = tf.memory().numTensors;
      expect(() =>
        tf.tidy(() =>
          tf.engine().runKernel(LAYER_NORM_GRAD_KERNEL, {
            dy: tf.zeros([2, 4]),
            xhat: tf.zeros([2, 4]),
            rstd: tf.zeros([3, 1]),
            gamma: tf.zeros([4]),
          }),
        ),
      ).toThrow(/MaouLayerNormGrad: rstd has 3 values, one per row \(2\) expected/);
      expect(() =>
        tf.tidy(() =>
          tf.engine().runKernel(LAYER_NORM_KERNEL, { x: tf.zeros([2, 4]), gamma: tf.ones([4]), beta: tf.zeros([4]) }),
        ),
      ).toThrow(/MaouLayerNorm: attr eps is undefined, a number > 0 expected/);
      expect(() =>
        tf.engine().runKernel(DROPOUT_MASK_KERNEL, {}, { shape: [4], key: -1, threshold: 0, scale: 1.25 }),
      ).toThrow(/MaouDropoutMask: attr key is -1, an unsigned 32-bit integer expected/);
      expect(tf.memory().numTensors).toBe(before);
    });
  },
);
