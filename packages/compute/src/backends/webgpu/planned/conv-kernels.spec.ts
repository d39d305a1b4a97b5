import { loadDawn } from '../dawn-runtime';
import { useLavapipe } from '@maou/bench-testkit/compute';
import { type GpuDevice, MAP_READ, USAGE } from './gpu-types';
import {
  type Activation,
  convFilterGrad,
  convForward,
  convGeometry,
  convInputGrad,
  type ConvShape,
  convStatsFloats,
  normFinish,
  type NormShape,
} from './kernels';
import { MaterializedStep } from './materialize';
import { type StepDescription } from './step-description';
import { gemmTile, type Dispatch } from './wgsl';

// Kernel-level checks of the convolution generators on small shapes against plain loops: the scalar path (channel
// counts not multiples of 4) and the vec4 path, the batch-norm statistics of the forward's epilogue, and the
// normalise-on-load input (scale, shift, residual, ReLU, kept output). The presets only have vec4 shapes.

const gpu = useLavapipe();
if (!gpu.available) console.warn(`planned conv kernel specs skipped: ${gpu.reason}`);

let device: GpuDevice;

/** Deterministic values in [-1, 1). */
const values = (n: number, seed: number): Float32Array => {
  let s = seed >>> 0;
  return Float32Array.from({ length: n }, () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 31 - 1;
  });
};

/** Runs the dispatches once over buffers with these initial contents and reads every buffer back. */
async function run(dispatches: Dispatch[], init: Record<string, Float32Array>): Promise<Record<string, Float32Array>> {
  const buffers = new Map(Object.entries(init).map(([k, v]) => [k, v.length]));
  const description: StepDescription = {
    batch: 0,
    buffers,
    halfBuffers: new Set(),
    dispatches,
    offsets: new Map(),
    runningOffsets: new Map(),
    parameterFloats: 0,
    runningFloats: 0,
    phaseStarts: { loss: 0, backward: 0, optimizer: 0 },
  };
  const step = await MaterializedStep.create(device, description, new Map(), new Map());
  for (const [name, data] of Object.entries(init)) device.queue.writeBuffer(step.buffers.get(name)!, 0, data);
  const encoder = device.createCommandEncoder();
  step.encode(encoder);
  const staging = new Map(
    [...buffers].map(([name, floats]) => {
      const b = device.createBuffer({ size: floats * 4, usage: USAGE.MAP_READ | USAGE.COPY_DST });
      encoder.copyBufferToBuffer(step.buffers.get(name)!, 0, b, 0, floats * 4);
      return [name, b] as const;
    }),
  );
  device.queue.submit([encoder.finish()]);
  const out: Record<string, Float32Array> = {};
  for (const [name, b] of staging) {
    await b.mapAsync(MAP_READ);
    out[name] = new Float32Array(b.getMappedRange().slice(0));
    b.unmap();
    b.destroy();
  }
  step.dispose();
  return out;
}

const shape = (cin: number, cout: number, k: number, stride: number, h: number, wOff: number): ConvShape => ({
  name: `conv ${cin}->${cout} k${k}s${stride}`,
  cin,
  cout,
  k,
  stride,
  h,
  ...convGeometry(h, k, stride),
  wOff,
});

/** Reference convolution on NHWC x and HWIO weights at c.wOff of P: z[n, oh, ow, co]. */
function conv(c: ConvShape, batch: number, x: Float32Array, P: Float32Array): Float64Array {
  const z = new Float64Array(batch * c.oh * c.oh * c.cout);
  for (let n = 0; n < batch; n++)
    for (let oh = 0; oh < c.oh; oh++)
      for (let ow = 0; ow < c.oh; ow++)
        for (let kh = 0; kh < c.k; kh++)
          for (let kw = 0; kw < c.k; kw++) {
            const ih = oh * c.stride - c.pad + kh;
            const iw = ow * c.stride - c.pad + kw;
            if (ih < 0 || iw < 0 || ih >= c.h || iw >= c.h) continue;
            for (let ci = 0; ci < c.cin; ci++) {
              const v = x[((n * c.h + ih) * c.h + iw) * c.cin + ci]!;
              for (let co = 0; co < c.cout; co++)
                z[((n * c.oh + oh) * c.oh + ow) * c.cout + co]! +=
                  v * P[c.wOff + ((kh * c.k + kw) * c.cin + ci) * c.cout + co]!;
            }
          }
  return z;
}

const maxRelErr = (want: ArrayLike<number>, got: ArrayLike<number>): number => {
  let scale = 0;
  let diff = 0;
  for (let i = 0; i < want.length; i++) {
    scale = Math.max(scale, Math.abs(want[i]!));
    diff = Math.max(diff, Math.abs(want[i]! - got[i]!));
  }
  return diff / scale;
};

(gpu.available ? describe : describe.skip)('planned convolution kernels (lavapipe, small shapes)', () => {
  beforeAll(async () => {
    const dawn = loadDawn();
    if (!dawn.ok) throw new Error(dawn.error);
    const adapter = await dawn.value.requestAdapter();
    if (!adapter) throw new Error('no WebGPU adapter');
    device = (await adapter.requestDevice({
      requiredLimits: { maxStorageBuffersPerShaderStage: adapter.limits.maxStorageBuffersPerShaderStage },
    })) as unknown as GpuDevice;
  });

  // cin 6 / cout 5: scalar loads (16×16 tiles); cin 8 / cout 64: vec4 loads, the 64×64 tile for the forward.
  it.each([
    ['scalar', 6, 5, 2],
    ['vec4', 8, 64, 4],
  ] as const)(
    '%s: 1×1 conv of relu(bn(z) + residual) keeps its input, its epilogue gives the batch-norm statistics',
    async (_, cin, cout, wOff) => {
      const batch = 2;
      const c = shape(cin, cout, 1, 1, 9, wOff);
      const rows = batch * c.oh * c.oh;
      const zin = values(rows * cin, 1);
      const res = values(rows * cin, 2);
      const P = values(wOff + cin * cout + 2 * cout, 3);
      const S = values(4 * cin, 4); // [mean, rstd, scale, shift] of the input's norm: the loader uses scale, shift
      const R = values(2 * cout, 5);
      const bn: NormShape = {
        name: 'bn',
        channels: cout,
        gammaOff: wOff + cin * cout,
        betaOff: wOff + cin * cout + cout,
        runningOff: 0,
        statsOff: 4 * cin,
      };
      const input: Activation = { z: 'zin', sOff: 0, residual: { tensor: 'res' }, keep: 'kept' };
      const out = await run(
        [convForward(c, batch, input, 'z', 'stats'), normFinish(bn, rows, gemmTile(rows, cout), 'stats')],
        {
          zin,
          res,
          P,
          S: Float32Array.from([...S, ...new Float32Array(4 * cout)]),
          R,
          kept: new Float32Array(rows * cin),
          z: new Float32Array(rows * cout),
          stats: new Float32Array(convStatsFloats(c, batch)),
        },
      );
      const a = zin.map((v, i) => Math.max(0, v * S[2 * cin + (i % cin)]! + S[3 * cin + (i % cin)]! + res[i]!));
      expect(maxRelErr(a, out.kept!)).toBeLessThan(1e-6);
      const z = conv(c, batch, a, P);
      expect(maxRelErr(z, out.z!)).toBeLessThan(1e-5);
      const mean = new Float64Array(cout);
      const variance = new Float64Array(cout);
      z.forEach((v, i) => (mean[i % cout]! += v / rows));
      z.forEach((v, i) => (variance[i % cout]! += (v - mean[i % cout]!) ** 2 / rows));
      const rstd = variance.map((v) => 1 / Math.sqrt(v + 1e-5));
      const got = out.S!.subarray(4 * cin);
      expect(maxRelErr(mean, got.subarray(0, cout))).toBeLessThan(1e-5);
      expect(maxRelErr(rstd, got.subarray(cout, 2 * cout))).toBeLessThan(1e-5);
      const scale = rstd.map((r, j) => r * P[bn.gammaOff + j]!);
      expect(maxRelErr(scale, got.subarray(2 * cout, 3 * cout))).toBeLessThan(1e-5);
      const shift = scale.map((s, j) => P[bn.betaOff + j]! - mean[j]! * s);
      expect(maxRelErr(shift, got.subarray(3 * cout))).toBeLessThan(1e-5);
      const running = [
        ...mean.map((m, j) => 0.9 * R[j]! + 0.1 * m),
        ...variance.map((v, j) => 0.9 * R[cout + j]! + 0.1 * v * (rows / (rows - 1))),
      ];
      expect(maxRelErr(running, out.R!)).toBeLessThan(1e-5);
    },
    120_000,
  );

  it.each([
    ['scalar', 6, 5, 2],
    ['vec4', 8, 12, 4],
  ] as const)(
    '%s: 3×3 stride-2 conv, its input gradient and its filter gradient (split over K) match plain loops',
    async (_, cin, cout, wOff) => {
      const batch = 2;
      const c = shape(cin, cout, 3, 2, 9, wOff);
      const x = values(batch * 81 * cin, 6);
      const P = values(wOff + 9 * cin * cout, 7);
      const dz = values(batch * c.oh * c.oh * cout, 8);
      const splits = 2;
      const out = await run(
        [
          convForward(c, batch, { tensor: 'x' }, 'z', 'stats'),
          convInputGrad(c, batch, 'dz', 'dx'),
          ...convFilterGrad(c, batch, { tensor: 'x' }, 'dz', splits, 'split'),
        ],
        {
          x,
          P,
          dz,
          z: new Float32Array(dz.length),
          stats: new Float32Array(convStatsFloats(c, batch)),
          dx: new Float32Array(x.length),
          split: new Float32Array(splits * 9 * cin * cout),
          G: new Float32Array(P.length),
        },
      );
      expect(maxRelErr(conv(c, batch, x, P), out.z!)).toBeLessThan(1e-5);
      // dx and dW by the chain rule through the reference: each is a sum of x·w·dz terms
      const dx = new Float64Array(x.length);
      const dW = new Float64Array(9 * cin * cout);
      for (let n = 0; n < batch; n++)
        for (let oh = 0; oh < c.oh; oh++)
          for (let ow = 0; ow < c.oh; ow++)
            for (let tap = 0; tap < 9; tap++) {
              const ih = oh * 2 - c.pad + Math.floor(tap / 3);
              const iw = ow * 2 - c.pad + (tap % 3);
              if (ih < 0 || iw < 0 || ih >= 9 || iw >= 9) continue;
              for (let ci = 0; ci < cin; ci++)
                for (let co = 0; co < cout; co++) {
                  const g = dz[((n * c.oh + oh) * c.oh + ow) * cout + co]!;
                  const xi = ((n * 9 + ih) * 9 + iw) * cin + ci;
                  dx[xi]! += g * P[wOff + (tap * cin + ci) * cout + co]!;
                  dW[(tap * cin + ci) * cout + co]! += g * x[xi]!;
                }
            }
      expect(maxRelErr(dx, out.dx!)).toBeLessThan(1e-5);
      expect(maxRelErr(dW, out.G!.subarray(wOff))).toBeLessThan(1e-5);
    },
    120_000,
  );
});
