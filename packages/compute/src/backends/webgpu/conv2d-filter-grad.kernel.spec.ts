import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import { chunksFor, conv2dFilterGradient } from './conv2d-filter-grad.kernel';
import { useLavapipe } from '@maou/bench-testkit/compute';
import { startWebgpuBackend } from './webgpu-backend.plugin';

interface Case {
  name: string;
  x: [number, number, number, number];
  k: number;
  co: number;
  stride: number;
  pad: 'same' | 'valid' | number;
}
const cases: Case[] = [
  { name: '1x1 stride 1', x: [3, 9, 9, 5], k: 1, co: 7, stride: 1, pad: 'same' },
  { name: '1x1 stride 2 (projection)', x: [2, 9, 9, 4], k: 1, co: 6, stride: 2, pad: 'same' },
  { name: '3x3 stride 1 same', x: [4, 9, 9, 3], k: 3, co: 5, stride: 1, pad: 'same' },
  { name: '3x3 stride 2 same (9 -> 5)', x: [2, 9, 9, 4], k: 3, co: 3, stride: 2, pad: 'same' },
  { name: '3x3 stride 2 on 3x3 (3 -> 2)', x: [5, 3, 3, 6], k: 3, co: 4, stride: 2, pad: 'same' },
  { name: '3x3 valid', x: [2, 6, 7, 2], k: 3, co: 3, stride: 1, pad: 'valid' },
  { name: '3x3 explicit pad 1', x: [2, 5, 5, 2], k: 3, co: 2, stride: 1, pad: 1 },
  { name: 'split into batch chunks', x: [16, 9, 9, 8], k: 3, co: 8, stride: 1, pad: 'same' },
];

const seeded = (shape: number[], seed: number): tf.Tensor =>
  tf.tensor(
    Array.from({ length: shape.reduce((a, b) => a * b, 1) }, (_, i) => Math.sin(seed * 7.1 + i * 1.37)),
    shape,
  );

/** Stock cpu kernel: the reference. */
async function reference(c: Case): Promise<Float32Array> {
  await tf.setBackend('cpu');
  const x = seeded(c.x, 1) as tf.Tensor4D;
  const filterShape: [number, number, number, number] = [c.k, c.k, c.x[3], c.co];
  const y = tf.conv2d(x, seeded(filterShape, 2) as tf.Tensor4D, c.stride, c.pad);
  const dy = seeded(y.shape, 3) as tf.Tensor4D;
  const attrs = { strides: c.stride, pad: c.pad, dataFormat: 'NHWC', filterShape };
  return (await (tf.engine().runKernel('Conv2DBackpropFilter', { x, dy }, attrs) as tf.Tensor).data()) as Float32Array;
}

/** The kernel through the registry: on webgpu, the plug-in's registration (one-dispatch im2col). */
async function registered(c: Case): Promise<Float32Array> {
  const x = seeded(c.x, 1) as tf.Tensor4D;
  const filterShape: [number, number, number, number] = [c.k, c.k, c.x[3], c.co];
  const dy = seeded(tf.conv2d(x, seeded(filterShape, 2) as tf.Tensor4D, c.stride, c.pad).shape, 3);
  const attrs = { strides: c.stride, pad: c.pad, dataFormat: 'NHWC', filterShape };
  return (await (tf.engine().runKernel('Conv2DBackpropFilter', { x, dy }, attrs) as tf.Tensor).data()) as Float32Array;
}

async function fast(c: Case, backendName: string): Promise<Float32Array> {
  const x = seeded(c.x, 1) as tf.Tensor4D;
  const filterShape: [number, number, number, number] = [c.k, c.k, c.x[3], c.co];
  const y = tf.conv2d(x, seeded(filterShape, 2) as tf.Tensor4D, c.stride, c.pad);
  const dy = seeded(y.shape, 3);
  const out = conv2dFilterGradient(
    tf.backend(),
    backendName,
    { x, dy },
    { strides: c.stride, pad: c.pad, dataFormat: 'NHWC', filterShape },
  );
  return (await tf.engine().makeTensorFromTensorInfo(out).data()) as Float32Array;
}

/** Largest difference relative to the largest reference value (sums of thousands of terms round differently). */
const maxDiff = (a: Float32Array, b: Float32Array): number =>
  a.reduce((m, v, i) => Math.max(m, Math.abs(v - b[i])), 0) / b.reduce((m, v) => Math.max(m, Math.abs(v)), 1e-12);

describe('filter gradient as im2col + batched matmul', () => {
  it('splits the reduction over batch chunks only when each chunk keeps enough rows', () => {
    expect(chunksFor(256, 81, 576, 64)).toBeGreaterThan(1);
    expect(256 % chunksFor(256, 81, 576, 64)).toBe(0);
    expect(chunksFor(2, 81, 9, 5)).toBe(1);
    expect(chunksFor(7, 81, 27, 5)).toBe(1);
    expect(chunksFor(16, 81, 72, 8)).toBe(4);
  });

  it.each(cases)('matches the stock cpu kernel on the cpu backend: $name', async (c) => {
    const want = await reference(c);
    const got = await fast(c, 'cpu');
    expect(got.length).toBe(want.length);
    expect(maxDiff(got, want)).toBeLessThan(1e-5);
  });

  const gpu = useLavapipe();
  (gpu.available ? it : it.skip)(
    'matches the stock cpu kernel on the webgpu backend, op-built and one-dispatch im2col, every case',
    async () => {
      for (const c of cases) {
        const want = await reference(c);
        const started = await startWebgpuBackend({ backend: 'webgpu', deviceIndex: 0, threads: 'auto' });
        if (!started.ok) throw new Error(started.error);
        expect(maxDiff(await fast(c, 'webgpu'), want)).toBeLessThan(1e-5);
        expect(maxDiff(await registered(c), want)).toBeLessThan(1e-5);
      }
      await tf.setBackend('cpu');
    },
    // cold shader compiles on lavapipe, beside another jest worker: minutes on a loaded 2-core machine
    600_000,
  );
});
