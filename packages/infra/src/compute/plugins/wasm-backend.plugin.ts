import * as tf from '@tensorflow/tfjs-core';
import { ok } from '@maou/bench-domain';
import { type BackendPlugin } from '../backend-plugin';
import { installWasmKernels, type WasmKernelSet } from '../wasm/register-wasm-kernels';

let installed: WasmKernelSet | null = null;

/**
 * tfjs wasm (XNNPACK, SIMD) with this project's gradient kernels. Node gets the single-threaded
 * build (tfjs#3830), so `threads` is reported as 1 whatever was asked.
 * @public
 */
export function createWasmBackendPlugin(kernels: WasmKernelSet = 'fast'): BackendPlugin {
  return {
    name: 'wasm',
    priority: 10,
    async start(config) {
      const wasm = await import('@tensorflow/tfjs-backend-wasm');
      if (installed === null) {
        installWasmKernels(kernels);
        installed = kernels;
      }
      await tf.setBackend('wasm');
      await tf.ready();
      const notes = [installed === 'fast' ? 'fast gradient kernels: Conv2DBackpropFilter/Input, BatchMatMul' : 'stock kernels + Conv2DBackpropFilter shim'];
      if (config.threads !== 'auto' && config.threads > 1) notes.push(`asked for ${config.threads} threads; tfjs-wasm runs 1 thread in Node`);
      return ok({ name: 'wasm', version: wasm.version_wasm, threads: wasm.getThreadsCount(), device: 'cpu (WebAssembly SIMD)', notes });
    },
  };
}
