import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import type { ComputeConfig } from '@maou/bench-domain';
import { useLavapipe } from '@maou/bench-testkit/compute';
import { startWebgpuBackend } from './webgpu-backend.plugin';

const gpu = useLavapipe();
if (!gpu.available) console.warn(`WebGPU specs skipped: ${gpu.reason}`);
const describeGpu = gpu.available ? describe : describe.skip;
const config = (backend: ComputeConfig['backend']): ComputeConfig => ({ backend, deviceIndex: 0, threads: 'auto' });

describeGpu('webgpu backend plug-in (lavapipe or a real GPU)', () => {
  afterAll(async () => {
    await tf.setBackend('cpu');
  });

  it('starts on the adapter and reports vendor, device and whether it is software', async () => {
    const started = await startWebgpuBackend(config('webgpu'));
    if (!started.ok) throw new Error(started.error);
    expect(tf.getBackend()).toBe('webgpu');
    const info = started.value;
    expect(info.name).toBe('webgpu');
    expect(info.version).toBe('4.22.0');
    expect(info.gpuAdapter?.vendor).toMatch(/\w/);
    expect(info.device).toContain(info.gpuAdapter?.device ?? '?');
    if (info.gpuAdapter?.softwareFallback) expect(info.notes.join(' ')).toContain('software adapter');
  });

  it('computes a matmul that agrees with the cpu backend, read back asynchronously', async () => {
    const a = [1, 2, 3, 4, 5, 6];
    const b = [0.5, -1, 2, 0.25, 3, -2];
    await startWebgpuBackend(config('webgpu'));
    const onGpu = tf.matMul(tf.tensor2d(a, [2, 3]), tf.tensor2d(b, [3, 2]));
    // The webgpu backend cannot read synchronously in Node (no OffscreenCanvas).
    expect(() => onGpu.dataSync()).toThrow();
    const gpuValues = await onGpu.data();
    await tf.setBackend('cpu');
    const cpuValues = await tf.matMul(tf.tensor2d(a, [2, 3]), tf.tensor2d(b, [3, 2])).data();
    expect(Array.from(gpuValues)).toEqual(Array.from(cpuValues));
  });

  it('refuses a software adapter when the backend was not named', async () => {
    const started = await startWebgpuBackend(config('auto'));
    if (started.ok) {
      expect(started.value.gpuAdapter?.softwareFallback).toBe(false);
    } else {
      expect(started.error).toMatch(/software adapter.*--gpu webgpu/);
    }
  });
});
