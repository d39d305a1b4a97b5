import * as os from 'node:os';
import * as tf from '@tensorflow/tfjs-core';
import type { ComputeConfig } from '@maou/bench-domain';
import { createWasmBackendPlugin } from './wasm-backend.plugin';
import { useCpuKernels } from './native/native-kernels';

const config = (threads: ComputeConfig['threads']): ComputeConfig => ({ backend: 'wasm', deviceIndex: 0, threads });

describe('wasm backend plugin', () => {
  const plugin = createWasmBackendPlugin('fast');

  it('given --threads N, then it reports N data-parallel replicas and says how batch norm is handled', async () => {
    const started = await plugin.start(config(3));
    if (!started.ok) throw new Error(started.error.message);
    expect(tf.getBackend()).toBe('wasm');
    expect(started.value.threads).toBe(3);
    expect(started.value.heapLimitBytes).toBe(2 ** 32);
    expect(started.value.notes.join('\n')).toMatch(/data-parallel: 3 single-threaded wasm replicas.*batch norm/);
  });

  it('given more threads than usable cores, then a note says the replicas will share cores', async () => {
    const started = await plugin.start(config(os.availableParallelism() + 1));
    if (!started.ok) throw new Error(started.error.message);
    expect(started.value.notes.join('\n')).toMatch(
      /--threads \d+ is more than the \d+ usable core\(s\): replicas will share cores/,
    );
  });

  it('given one thread, then there is no data-parallel note; given auto, then a thread count the machine can run', async () => {
    const one = await plugin.start(config(1));
    if (!one.ok) throw new Error(one.error.message);
    expect(one.value.notes.join('\n')).not.toMatch(/data-parallel/);
    const auto = await plugin.start(config('auto'));
    if (!auto.ok) throw new Error(auto.error.message);
    expect(auto.value.threads).toBeGreaterThanOrEqual(1);
    expect(auto.value.threads).toBeLessThanOrEqual(Math.min(8, os.availableParallelism()));
  });

  it('says which convolution kernels run: the native ones where built, else the WebAssembly ones and why', async () => {
    try {
      useCpuKernels('wasm');
      const fallback = await plugin.start(config(1));
      if (!fallback.ok) throw new Error(fallback.error.message);
      expect(fallback.value.device).toBe('cpu (WebAssembly SIMD)');
      expect(fallback.value.notes[0]).toBe(
        'WebAssembly SIMD kernels: Conv2D, Conv2DBackpropFilter/Input, BatchMatMul (not native: MAOU_CPU_KERNELS=wasm)',
      );
      useCpuKernels('auto');
      const native = await plugin.start(config(1));
      if (!native.ok) throw new Error(native.error.message);
      expect(native.value.device).toMatch(/^cpu \(native AVX(-512|2) convolutions, WebAssembly SIMD\)$/);
      expect(native.value.notes[0]).toMatch(/^native AVX(-512|2) kernels \(compiled at install\)/);
    } finally {
      useCpuKernels('auto');
    }
  });
});
