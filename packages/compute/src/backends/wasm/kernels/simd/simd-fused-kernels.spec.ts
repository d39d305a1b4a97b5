import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import '@tensorflow/tfjs-backend-wasm';
import {
  ADAMW_KERNEL,
  BATCH_NORM_GRAD_KERNEL,
  BATCH_NORM_TRAIN_KERNEL,
  CLIP_BY_GLOBAL_NORM_KERNEL,
  createTrainer,
  DROPOUT_MASK_KERNEL,
  GELU_GRAD_KERNEL,
  GELU_KERNEL,
  LAYER_NORM_GRAD_KERNEL,
  LAYER_NORM_KERNEL,
  hasKernel,
} from '@maou/bench-engine';
import {
  DROPOUT_MASK_CASES,
  fastWasmBackend,
  kernelAndHostMask,
  randomBatch,
  relErr,
  TRAINING,
} from '@maou/bench-testkit/compute';
import { useCpuKernels } from '../../native/native-kernels';

// The fused kernels (fused-kernels.c) against the composite tfjs ops they replace, run on the cpu backend:
// batch norm (alone, with its ReLU, with the running statistics) for every shape of the lite network's BN
// layers plus odd ones, AdamW over several steps, global-norm clipping, and whole training runs with the
// kernels registered against ones without them.
const EPS = 1e-5;
const rand = (shape: number[], seed: number, lo = -1, hi = 1) =>
  tf.randomUniform(shape, lo, hi, 'float32', seed).dataSync() as Float32Array;

/** Runs `f` on a backend and reads every output back. */
async function on(backend: string, f: () => tf.Tensor[]): Promise<Float32Array[]> {
  await tf.setBackend(backend);
  return tf.tidy(() => f().map((t) => t.dataSync() as Float32Array));
}

/** The composite batch-norm forward (as BatchNorm without the fused kernels): [y, xhat, mean, variance, rstd]. */
function compositeForward(x: tf.Tensor, gamma: tf.Tensor, beta: tf.Tensor): tf.Tensor[] {
  const axes = x.shape.slice(0, -1).map((_, i) => i);
  const n = x.size / x.shape[x.shape.length - 1];
  const mean = tf.div(tf.sum(x, axes), n);
  const centered = tf.sub(x, mean);
  const variance = tf.div(tf.sum(tf.square(centered), axes), n);
  const rstd = tf.rsqrt(tf.add(variance, EPS));
  const xhat = tf.mul(centered, rstd);
  return [tf.add(tf.mul(xhat, gamma), beta), xhat, mean, variance, rstd];
}

/** The composite backward: [dx, dGamma, dBeta]. */
function compositeGrad(dy: tf.Tensor, xhat: tf.Tensor, rstd: tf.Tensor, gamma: tf.Tensor): tf.Tensor[] {
  const axes = dy.shape.slice(0, -1).map((_, i) => i);
  const n = dy.size / dy.shape[dy.shape.length - 1];
  const dBeta = tf.sum(dy, axes);
  const dGamma = tf.sum(tf.mul(dy, xhat), axes);
  const inner = tf.sub(tf.sub(dy, tf.div(dBeta, n)), tf.mul(xhat, tf.div(dGamma, n)));
  return [tf.mul(inner, tf.mul(rstd, gamma)), dGamma, dBeta];
}

const fused =
  (name: string, inputs: Record<string, [Float32Array, number[]]>, attrs: tf.NamedAttrMap = {}) =>
  () => {
    const ts = Object.fromEntries(Object.entries(inputs).map(([k, [v, s]]) => [k, tf.tensor(v, s)]));
    return tf.engine().runKernel(name, ts, attrs) as tf.Tensor[];
  };

// [batch, board, channels]: every BN of the lite preset (widths 24-144, ×4 expansion, boards 9→5→3→2),
// at batch 4 and 16, and channel counts off the 8-wide strips (scalar tails).
const SHAPES: Array<[number, number, number]> = [
  [16, 9, 24],
  [4, 9, 96],
  [16, 5, 48],
  [4, 5, 192],
  [16, 3, 96],
  [4, 3, 384],
  [16, 2, 144],
  [4, 2, 576],
  [16, 2, 576],
  [4, 9, 13],
  [16, 3, 4],
  [4, 2, 3],
];

describe('fused SIMD kernels (wasm): batch norm and AdamW', () => {
  const wasm = fastWasmBackend();
  beforeAll(wasm.setUp);
  afterAll(wasm.tearDown);

  it('are registered on wasm only', async () => {
    await tf.setBackend('wasm');
    expect(
      [BATCH_NORM_TRAIN_KERNEL, BATCH_NORM_GRAD_KERNEL, ADAMW_KERNEL, CLIP_BY_GLOBAL_NORM_KERNEL].every(hasKernel),
    ).toBe(true);
    await tf.setBackend('cpu');
    expect(hasKernel(BATCH_NORM_TRAIN_KERNEL)).toBe(false);
  });

  it.each(SHAPES)(
    'batch norm B=%i board=%i C=%i: y, xhat, statistics and all three gradients match the composite ops',
    async (b, board, c) => {
      const shape = [b, board, board, c];
      const x = rand(shape, c + board, -2, 3);
      const gamma = rand([c], 2, 0.5, 1.5);
      const beta = rand([c], 3);
      const dy = rand(shape, 4);
      const fwd = { x: [x, shape], gamma: [gamma, [c]], beta: [beta, [c]] } as Record<string, [Float32Array, number[]]>;
      const ref = await on('cpu', () => compositeForward(tf.tensor(x, shape), tf.tensor(gamma), tf.tensor(beta)));
      const got = await on('wasm', fused(BATCH_NORM_TRAIN_KERNEL, fwd, { eps: EPS }));
      // y, xhat, mean, variance, rstd
      got.forEach((g, i) => expect(relErr(ref[i], g)).toBeLessThan(2e-5));
      // The gradient from one set of saved values on both sides, so only the backward differs.
      const [, xhat, , , rstd] = got;
      const refGrad = await on('cpu', () =>
        compositeGrad(tf.tensor(dy, shape), tf.tensor(xhat, shape), tf.tensor(rstd), tf.tensor(gamma)),
      );
      const gotGrad = await on(
        'wasm',
        fused(BATCH_NORM_GRAD_KERNEL, { dy: [dy, shape], xhat: [xhat, shape], rstd: [rstd, [c]], gamma: [gamma, [c]] }),
      );
      expect(gotGrad.map((g) => g.length)).toEqual([x.length, c, c]);
      gotGrad.forEach((g, i) => expect(relErr(refGrad[i], g)).toBeLessThan(2e-5));
    },
  );

  it.each(SHAPES)(
    'batch norm + ReLU B=%i board=%i C=%i: y and all three gradients match bn, tf.relu and their gradients',
    async (b, board, c) => {
      const shape = [b, board, board, c];
      const x = rand(shape, c + board + 1, -2, 3);
      const gamma = rand([c], 5, 0.5, 1.5);
      const beta = rand([c], 6, -0.5, 0.5);
      const dy = rand(shape, 7);
      const fwd = { x: [x, shape], gamma: [gamma, [c]], beta: [beta, [c]] } as Record<string, [Float32Array, number[]]>;
      const [y, xhat, , , rstd] = await on('wasm', fused(BATCH_NORM_TRAIN_KERNEL, fwd, { eps: EPS, relu: true }));
      const [bn] = await on('wasm', fused(BATCH_NORM_TRAIN_KERNEL, fwd, { eps: EPS }));
      // The same kernel without ReLU, then relu: bit for bit (the ReLU only clamps).
      expect(y).toEqual(Float32Array.from(bn, (v) => (v < 0 ? 0 : v)));
      expect(y.some((v) => v === 0) && y.some((v) => v > 0)).toBe(true);
      const ref = await on('cpu', () => [
        tf.relu(compositeForward(tf.tensor(x, shape), tf.tensor(gamma), tf.tensor(beta))[0]),
      ]);
      expect(relErr(ref[0], y)).toBeLessThan(2e-5);
      // Backward: relu's gradient (dy·step(bn)) then the composite batch-norm gradient, from the same saved values.
      const refGrad = await on('cpu', () =>
        compositeGrad(
          tf.mul(tf.tensor(dy, shape), tf.step(tf.tensor(bn, shape))),
          tf.tensor(xhat, shape),
          tf.tensor(rstd),
          tf.tensor(gamma),
        ),
      );
      const gradInputs = { dy: [dy, shape], xhat: [xhat, shape], rstd: [rstd, [c]], gamma: [gamma, [c]] } as Record<
        string,
        [Float32Array, number[]]
      >;
      const gotGrad = await on('wasm', fused(BATCH_NORM_GRAD_KERNEL, { ...gradInputs, y: [y, shape] }));
      gotGrad.forEach((g, i) => expect(relErr(refGrad[i], g)).toBeLessThan(2e-5));
      // Masking dy first and passing no y is the same computation.
      const masked = Float32Array.from(dy, (d, i) => (y[i] > 0 ? d : 0));
      const plain = await on('wasm', fused(BATCH_NORM_GRAD_KERNEL, { ...gradInputs, dy: [masked, shape] }));
      plain.forEach((g, i) => expect(g).toEqual(gotGrad[i]));
    },
  );

  it.each([
    [16, 9, 24],
    [4, 2, 3],
  ] as Array<[number, number, number]>)(
    'batch norm B=%i board=%i C=%i updates the running statistics exactly as the composite float32 ops',
    async (b, board, c) => {
      const shape = [b, board, board, c];
      const x = rand(shape, 11, -2, 3);
      const [runMean, runVar] = [rand([c], 12), rand([c], 13, 0.5, 2)];
      const inputs = {
        x: [x, shape],
        gamma: [rand([c], 2, 0.5, 1.5), [c]],
        beta: [rand([c], 3), [c]],
        runningMean: [runMean, [c]],
        runningVar: [runVar, [c]],
      } as Record<string, [Float32Array, number[]]>;
      const out = await on('wasm', fused(BATCH_NORM_TRAIN_KERNEL, inputs, { eps: EPS, momentum: 0.1 }));
      expect(out).toHaveLength(7);
      const [, , mean, variance, , newMean, newVar] = out;
      // float32 arithmetic: every product and sum rounded, the scalars rounded first (as tfjs's scalar operands).
      const f = Math.fround;
      const n = x.length / c;
      expect(newMean).toEqual(Float32Array.from(runMean, (r, i) => f(f(r * f(0.9)) + f(mean[i] * f(0.1)))));
      expect(newVar).toEqual(
        Float32Array.from(runVar, (r, i) => f(f(r * f(0.9)) + f(f(variance[i] * f(n / (n - 1))) * f(0.1)))),
      );
    },
  );

  it.each([
    ['clips', 0.5],
    ['leaves alone', 1e6],
  ] as Array<[string, number]>)(
    'global-norm clipping %s gradients as the composite ops (sizes off the SIMD strips, an empty one)',
    async (_n, maxNorm) => {
      const shapes = [[3, 3, 24, 24], [13], [1496, 37], [0], [5, 7], [1]];
      const grads = shapes.map((shape, i) => [rand(shape, 20 + i, -0.3, 0.3), shape] as [Float32Array, number[]]);
      const compositeClip = (gs: tf.Tensor[]) => {
        const norm = tf.sqrt(tf.addN(gs.map((g) => tf.sum(tf.square(g)))));
        return gs.map((g) => tf.mul(g, tf.minimum(tf.div(maxNorm, tf.add(norm, 1e-6)), 1)));
      };
      const ref = await on('cpu', () => compositeClip(grads.map(([v, sh]) => tf.tensor(v, sh))));
      const got = await on(
        'wasm',
        fused(CLIP_BY_GLOBAL_NORM_KERNEL, Object.fromEntries(grads.map((g, i) => [`g${i}`, g])), { maxNorm }),
      );
      expect(got.map((g) => g.length)).toEqual(grads.map(([v]) => v.length));
      got.forEach((g, i) => (g.length ? expect(relErr(ref[i], g)).toBeLessThan(1e-6) : undefined));
      if (maxNorm > 1) got.forEach((g, i) => expect(g).toEqual(grads[i][0]));
      else {
        const norm = Math.sqrt(got.reduce((a, g) => a + g.reduce((b, v) => b + v * v, 0), 0));
        expect(Math.abs(norm - maxNorm) / maxNorm).toBeLessThan(1e-5);
      }
    },
  );

  it('computes the variance of data far from zero accurately (two passes, blocked sums)', async () => {
    const shape = [16, 9, 9, 24];
    const x = rand(shape, 9, 999, 1001);
    const [, , mean, variance] = await on(
      'wasm',
      fused(
        BATCH_NORM_TRAIN_KERNEL,
        { x: [x, shape], gamma: [new Float32Array(24).fill(1), [24]], beta: [new Float32Array(24), [24]] },
        { eps: EPS },
      ),
    );
    const rows = x.length / 24;
    for (let c = 0; c < 24; c++) {
      let m = 0;
      for (let r = 0; r < rows; r++) m += x[r * 24 + c];
      m /= rows;
      let v = 0;
      for (let r = 0; r < rows; r++) v += (x[r * 24 + c] - m) ** 2;
      v /= rows;
      expect(Math.abs(mean[c] - m) / m).toBeLessThan(1e-6);
      expect(Math.abs(variance[c] - v) / v).toBeLessThan(1e-5);
    }
  });

  it.each([
    ['a conv filter with decay', [3, 3, 24, 24], 0.01],
    ['a bias without decay', [13], 0],
  ] as Array<[string, number[], number]>)(
    'AdamW on %s matches the composite update over 5 steps',
    async (_n, shape, weightDecay) => {
      const s = { lr: 1e-3, beta1: 0.9, beta2: 0.999, eps: 1e-8, weightDecay };
      let [pr, mr, vr] = [
        rand(shape, 5),
        new Float32Array(rand(shape, 5).length),
        new Float32Array(rand(shape, 5).length),
      ];
      let [pf, mf, vf] = [pr, mr, vr];
      for (let step = 1; step <= 5; step++) {
        const g = rand(shape, 10 + step);
        const bc1 = 1 - s.beta1 ** step;
        const bc2 = Math.sqrt(1 - s.beta2 ** step);
        [pr, mr, vr] = await on('cpu', () => {
          const m = tf.add(tf.mul(tf.tensor(mr), s.beta1), tf.mul(tf.tensor(g), 1 - s.beta1));
          const v = tf.add(tf.mul(tf.tensor(vr), s.beta2), tf.mul(tf.square(tf.tensor(g)), 1 - s.beta2));
          const p = weightDecay > 0 ? tf.mul(tf.tensor(pr), 1 - s.lr * weightDecay) : tf.tensor(pr);
          return [tf.sub(p, tf.mul(tf.div(m, tf.add(tf.div(tf.sqrt(v), bc2), s.eps)), s.lr / bc1)), m, v];
        });
        const inputs = { param: [pf, shape], grad: [g, shape], m: [mf, shape], v: [vf, shape] } as Record<
          string,
          [Float32Array, number[]]
        >;
        [pf, mf, vf] = await on('wasm', fused(ADAMW_KERNEL, inputs, { ...s, step }));
        expect(relErr(pr, pf)).toBeLessThan(1e-6);
        expect(relErr(mr, mf)).toBeLessThan(1e-6);
        expect(relErr(vr, vf)).toBeLessThan(1e-6);
      }
    },
  );

  it('reject inputs that do not fit, naming the input', async () => {
    await tf.setBackend('wasm');
    const before = tf.memory().numTensors;
    expect(() =>
      tf.tidy(
        fused(
          BATCH_NORM_TRAIN_KERNEL,
          { x: [new Float32Array(8), [2, 4]], gamma: [new Float32Array(3), [3]], beta: [new Float32Array(4), [4]] },
          { eps: EPS },
        ),
      ),
    ).toThrow(/gamma has 3 values/);
    const x = {
      x: [new Float32Array(8), [2, 4]],
      gamma: [new Float32Array(4), [4]],
      beta: [new Float32Array(4), [4]],
    } as Record<string, [Float32Array, number[]]>;
    expect(() =>
      tf.tidy(
        fused(
          BATCH_NORM_TRAIN_KERNEL,
          { ...x, runningMean: [new Float32Array(4), [4]], runningVar: [new Float32Array(2), [2]] },
          { eps: EPS, momentum: 0.1 },
        ),
      ),
    ).toThrow(/runningVar has 2 values/);
    expect(() =>
      tf.tidy(
        fused(
          BATCH_NORM_TRAIN_KERNEL,
          { ...x, runningMean: [new Float32Array(4), [4]], runningVar: [new Float32Array(4), [4]] },
          { eps: EPS },
        ),
      ),
    ).toThrow(/momentum is undefined/);
    expect(() =>
      tf.tidy(
        fused(BATCH_NORM_GRAD_KERNEL, {
          dy: [new Float32Array(8), [2, 4]],
          xhat: [new Float32Array(8), [2, 4]],
          rstd: [new Float32Array(4), [4]],
          gamma: [new Float32Array(4), [4]],
          y: [new Float32Array(4), [1, 4]],
        }),
      ),
    ).toThrow(/y \[1,4\] and dy \[2,4\] differ/);
    expect(() =>
      tf.tidy(fused(CLIP_BY_GLOBAL_NORM_KERNEL, { g0: [new Float32Array(4), [4]] }, { maxNorm: 0 })),
    ).toThrow(/maxNorm is 0/);
    expect(() =>
      tf.tidy(
        fused(
          ADAMW_KERNEL,
          {
            param: [new Float32Array(4), [4]],
            grad: [new Float32Array(4), [4]],
            m: [new Float32Array(4), [4]],
            v: [new Float32Array(4), [4]],
          },
          { lr: 1, beta1: 0.9, beta2: 0.9, eps: 1e-8, step: 0 },
        ),
      ),
    ).toThrow(/step is 0/);
    expect(tf.memory().numTensors).toBe(before);
  });

  /** Trains six steps with and without `kernels` registered: losses, final state, live tensors after each step. */
  async function trainBothWays(kernels: string[], training: typeof TRAINING) {
    await tf.setBackend('wasm');
    const configs = kernels.map((k) => tf.getKernel(k, 'wasm')!);
    const clock = { now: () => performance.now(), wallTime: () => new Date() };
    const batches = [1, 2, 3].map((seed) => randomBatch(3, 8, seed));
    const train = async () => {
      const before = tf.memory().numTensors;
      const trainer = createTrainer({ stage: 3, training, totalSteps: 10, seed: 1 });
      const counts = new Set<number>();
      const losses: number[] = [];
      for (const [i, batch] of [...batches, ...batches].entries()) {
        const r = await trainer.step(batch, clock);
        losses.push(r.loss);
        if (i > 0) counts.add(r.numTensors);
      }
      const { store } = (
        trainer as unknown as {
          network: { store: { parameters: { variable: tf.Variable }[]; buffers: tf.Variable[] } };
        }
      ).network;
      const state = [...store.parameters.map((p) => p.variable), ...store.buffers].map(
        (v) => v.dataSync() as Float32Array,
      );
      trainer.dispose();
      expect(tf.memory().numTensors).toBe(before);
      return { losses, state, counts };
    };
    const fusedRun = await train();
    for (const k of configs) tf.unregisterKernel(k.kernelName, 'wasm');
    try {
      expect(kernels.some(hasKernel)).toBe(false);
      const composite = await train();
      expect(fusedRun.counts.size).toBe(1);
      expect(composite.counts).toEqual(fusedRun.counts);
      return { fused: fusedRun, composite };
    } finally {
      for (const k of configs) tf.registerKernel(k);
    }
  }

  it('AdamW in training: bit for bit the composite update, with the same live tensors after every step', async () => {
    const { fused: f, composite: c } = await trainBothWays([ADAMW_KERNEL], TRAINING);
    expect(f.losses).toEqual(c.losses);
    f.state.forEach((s, i) => expect(s).toEqual(c.state[i]));
  }, 60_000);

  it('global-norm clipping in training, not clipping: bit for bit the composite run, with the same live tensors after every step', async () => {
    const { fused: f, composite: c } = await trainBothWays([CLIP_BY_GLOBAL_NORM_KERNEL], {
      ...TRAINING,
      gradientClip: 1e6,
    });
    expect(f.losses).toEqual(c.losses);
    f.state.forEach((s, i) => expect(s).toEqual(c.state[i]));
  }, 60_000);

  it('global-norm clipping in training, clipping every step: the composite run to rounding of the norm', async () => {
    // The composite norm sums each tensor sequentially in float32 (relative error ~1e-5 on 80k values), the
    // kernel in blocks; near-zero parameters (BN shifts) amplify that, so the state is compared as a whole.
    const { fused: f, composite: c } = await trainBothWays([CLIP_BY_GLOBAL_NORM_KERNEL], {
      ...TRAINING,
      optimizer: 'sgd',
      learningRate: 0.05,
      gradientClip: 0.1,
    });
    f.losses.forEach((l, i) => expect(Math.abs(l - c.losses[i]) / c.losses[i]).toBeLessThan(1e-5));
    const flat = (state: Float32Array[]) => Float32Array.from(state.flatMap((s) => [...s]));
    expect(relErr(flat(c.state), flat(f.state))).toBeLessThan(1e-4);
  }, 60_000);

  it('batch norm in training (SGD): the composite run to rounding, with the same live tensors after every step', async () => {
    // SGD, since Adam's first steps amplify rounding differences of near-zero gradients to ±lr.
    // On the WebAssembly convolution kernels: this 8-row run has a step that amplifies any rounding difference about
    // 1000-fold (its 4th loss differs by 1.7e-5 between the composite runs on the native AVX2 and AVX-512 kernels), so
    // the 1e-5 bar on BN's own rounding holds only where the rest of the arithmetic rounds as it did when it was set.
    useCpuKernels('wasm');
    const { fused: f, composite: c } = await trainBothWays([BATCH_NORM_TRAIN_KERNEL, BATCH_NORM_GRAD_KERNEL], {
      ...TRAINING,
      optimizer: 'sgd',
      learningRate: 0.05,
    }).finally(() => useCpuKernels('auto'));
    f.losses.forEach((l, i) => expect(Math.abs(l - c.losses[i]) / c.losses[i]).toBeLessThan(1e-5));
    f.state.forEach((s, i) => expect(relErr(c.state[i], s)).toBeLessThan(1e-4));
  }, 60_000);
});

describe('fused SIMD kernels (wasm): exact GELU', () => {
  const wasm = fastWasmBackend();
  beforeAll(wasm.setUp);
  afterAll(wasm.tearDown);

  /** The composite ops on the cpu backend (tfjs's Erf): [y, Φ(x), dx]. */
  const composite = (x: tf.Tensor, dy: tf.Tensor) => {
    const cdf = tf.mul(tf.add(tf.erf(tf.mul(x, Math.SQRT1_2)), 1), 0.5);
    const pdf = tf.mul(tf.exp(tf.mul(tf.square(x), -0.5)), 1 / Math.sqrt(2 * Math.PI));
    return [tf.mul(x, cdf), cdf, tf.mul(dy, tf.add(cdf, tf.mul(x, pdf)))];
  };

  // Counts 1-3 are all tail (the 4-lane loop never runs); 4099 ends on a 3-element tail and leads with edge values:
  // both tails of Φ, the clamp of exp's argument, ±0 and tiny inputs at the sign switch.
  it.each([1, 2, 3, 5, 4099])('%i values: y, Φ(x) and dx match the composite ops on cpu', async (count) => {
    const xs = rand([count], count, -12, 12);
    const edges = [0, -0, 1e-30, -1e-30, -200, 200, -5, 5, -87, 88];
    if (count > edges.length) edges.forEach((v, i) => (xs[i] = v));
    const dys = rand([count], count + 1);
    const ref = await on('cpu', () => composite(tf.tensor(xs), tf.tensor(dys)));
    const got = await on('wasm', () => {
      const [x, dy] = [tf.tensor(xs), tf.tensor(dys)];
      const [y, cdf] = tf.engine().runKernel(GELU_KERNEL, { x }) as tf.Tensor[];
      return [y, cdf, tf.engine().runKernel(GELU_GRAD_KERNEL, { dy, x, cdf }) as tf.Tensor];
    });
    // 1e-5: the reference's Erf is off by up to 1.5e-7 absolute, which is more relative to a few tail values.
    got.forEach((g, i) => expect(relErr(ref[i], g)).toBeLessThan(1e-5));
    // Φ keeps its relative precision in the lower tail (tfjs's Erf is accurate to 1.5e-7 absolute): Φ(-5) = 2.8665e-7.
    if (count > edges.length) expect(Math.abs(got[1][6] / 2.866515719e-7 - 1)).toBeLessThan(1e-5);
  });

  it('are registered on wasm only, and reject a gradient whose inputs differ in shape, naming the input', async () => {
    await tf.setBackend('wasm');
    expect([GELU_KERNEL, GELU_GRAD_KERNEL].every(hasKernel)).toBe(true);
    const before = tf.memory().numTensors;
    expect(() =>
      tf.tidy(
        fused(GELU_GRAD_KERNEL, {
          dy: [new Float32Array(4), [4]],
          x: [new Float32Array(4), [4]],
          cdf: [new Float32Array(6), [6]],
        }),
      ),
    ).toThrow(/MaouGeluGrad: cdf \[6\] and x \[4\] differ/);
    expect(tf.memory().numTensors).toBe(before);
    await tf.setBackend('cpu');
    expect(hasKernel(GELU_KERNEL)).toBe(false);
  });
});

describe('fused SIMD kernels (wasm): dropout mask', () => {
  const wasm = fastWasmBackend();
  beforeAll(wasm.setUp);
  afterAll(wasm.tearDown);

  it.each(DROPOUT_MASK_CASES)("%j at rate %d, seed %d: the engine's host mask exactly", async (shape, rate, seed) => {
    await tf.setBackend('wasm');
    const { kernel, host } = await kernelAndHostMask(shape, rate, seed);
    expect(kernel).toEqual(host);
  });

  it('is registered on wasm only, and refuses a bad attr by name', async () => {
    await tf.setBackend('wasm');
    expect(hasKernel(DROPOUT_MASK_KERNEL)).toBe(true);
    const before = tf.memory().numTensors;
    expect(() =>
      tf.engine().runKernel(DROPOUT_MASK_KERNEL, {}, { shape: [4], key: 1, threshold: 2 ** 32, scale: 2 }),
    ).toThrow(/MaouDropoutMask: attr threshold is 4294967296, an unsigned 32-bit integer expected/);
    expect(tf.memory().numTensors).toBe(before);
    await tf.setBackend('cpu');
    expect(hasKernel(DROPOUT_MASK_KERNEL)).toBe(false);
  });
});

describe('fused SIMD kernels (wasm): layer norm', () => {
  const wasm = fastWasmBackend();
  beforeAll(wasm.setUp);
  afterAll(wasm.tearDown);

  /** The composite ops of LayerNorm on the cpu backend: [y, xhat, rstd, dx, dGamma, dBeta]. */
  const composite = (x: tf.Tensor, gamma: tf.Tensor, beta: tf.Tensor, dy: tf.Tensor) => {
    const c = x.shape[x.shape.length - 1]!;
    const centred = tf.sub(x, tf.mean(x, -1, true));
    const rstd = tf.rsqrt(tf.add(tf.mean(tf.square(centred), -1, true), EPS));
    const xhat = tf.mul(centred, rstd);
    const g = tf.mul(dy, gamma);
    const dx = tf.mul(rstd, tf.sub(tf.sub(g, tf.mean(g, -1, true)), tf.mul(xhat, tf.mean(tf.mul(g, xhat), -1, true))));
    const rows = (t: tf.Tensor) => tf.sum(tf.reshape(t, [-1, c]), 0);
    return [tf.add(tf.mul(xhat, gamma), beta), xhat, rstd, dx, rows(tf.mul(dy, xhat)), rows(dy)];
  };

  // The widths of the mixer (16 in specs, 64 and 256 in maou's) and ViT; odd widths leave a scalar tail per row;
  // 300 rows span several 64-row blocks of the parameter-gradient sums; data off zero tests the centring.
  it.each([
    [[3, 81, 16], 0],
    [[300, 64], 3],
    [[5, 7], 0],
    [[2, 3, 3], 0],
    [[4, 259], -2],
  ])(
    'x %j (offset %d): y, xhat, rstd and all three gradients match the composite ops on cpu',
    async (shape, offset) => {
      const c = shape[shape.length - 1]!;
      const n = shape.reduce((a, b) => a * b, 1);
      const xs = rand([n], 1, offset - 1, offset + 1);
      const [gs, bs, dys] = [rand([c], 2, 0.5, 1.5), rand([c], 3), rand([n], 4)];
      const make = () => [tf.tensor(xs, shape), tf.tensor(gs), tf.tensor(bs), tf.tensor(dys, shape)];
      const ref = await on('cpu', () => {
        const [x, gamma, beta, dy] = make();
        return composite(x!, gamma!, beta!, dy!);
      });
      const got = await on('wasm', () => {
        const [x, gamma, beta, dy] = make();
        const forward = tf.engine().runKernel(LAYER_NORM_KERNEL, { x: x!, gamma: gamma!, beta: beta! }, { eps: EPS });
        const [y, xhat, rstd] = forward as tf.Tensor[];
        const grads = tf
          .engine()
          .runKernel(LAYER_NORM_GRAD_KERNEL, { dy: dy!, xhat: xhat!, rstd: rstd!, gamma: gamma! });
        return [y!, xhat!, rstd!, ...(grads as tf.Tensor[])];
      });
      expect(got.map((g) => g.length)).toEqual(ref.map((r) => r.length));
      const names = ['y', 'xhat', 'rstd', 'dx', 'dGamma', 'dBeta'];
      const off = got.map((g, i) => ({ name: names[i], err: relErr(ref[i]!, g) })).filter((e) => !(e.err < 1e-5));
      expect(off).toEqual([]);
    },
  );

  it('are registered on wasm only, and reject an rstd that is not one value per row, naming it', async () => {
    await tf.setBackend('wasm');
    expect([LAYER_NORM_KERNEL, LAYER_NORM_GRAD_KERNEL].every(hasKernel)).toBe(true);
    const before = tf.memory().numTensors;
    expect(() =>
      tf.tidy(
        fused(LAYER_NORM_GRAD_KERNEL, {
          dy: [new Float32Array(8), [2, 4]],
          xhat: [new Float32Array(8), [2, 4]],
          rstd: [new Float32Array(3), [3, 1]],
          gamma: [new Float32Array(4), [4]],
        }),
      ),
    ).toThrow(/MaouLayerNormGrad: rstd has 3 values, one per row \(2\) expected/);
    expect(tf.memory().numTensors).toBe(before);
    await tf.setBackend('cpu');
    expect(hasKernel(LAYER_NORM_KERNEL)).toBe(false);
  });
});
