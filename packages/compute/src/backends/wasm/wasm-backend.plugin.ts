import * as tf from '@tensorflow/tfjs-core';
import type * as TfjsWasm from '@tensorflow/tfjs-backend-wasm';
import { deriveSettings, err, ok } from '@maou/bench-domain';
import { selectedByName, type BackendPlugin } from '../../backend-plugin';
import { readUsableResources, readAddressSpace, wasmHeapLimit } from '@maou/bench-host';
import { requireModule } from '../optional-module';
import { dataParallelTrainers } from './data-parallel/data-parallel-factory';
import { installWasmKernels, type WasmKernelSet } from './kernels/register-wasm-kernels';
import { CPU_KERNELS_ENV, cpuKernelSelection, describeCpuKernels } from './native/native-kernels';
// require, not import(): a native import() fails where code runs in a vm without ESM support (a consumer's jest).

let installed: WasmKernelSet | null = null;

/** Makes tfjs-wasm with this project's kernels the active backend of this thread; returns its package version. @internal */
export async function startWasmBackend(kernels: WasmKernelSet): Promise<{ version: string; kernels: WasmKernelSet }> {
  const wasm = await requireModule<typeof TfjsWasm>('@tensorflow/tfjs-backend-wasm');
  if (installed === null) {
    installWasmKernels(kernels);
    installed = kernels;
  }
  // setBackend answers false when wasm cannot start (its heap not reserved under an address-space limit); tf.ready()
  // would then quietly pick another backend, so that is an error here, never a fallback.
  if (!(await tf.setBackend('wasm'))) {
    const { limitBytes } = await readAddressSpace();
    throw new Error(
      `the wasm backend could not start (tfjs-backend-wasm failed to initialise${limitBytes === null ? '' : `; the address-space limit, RLIMIT_AS, is ${(limitBytes / 2 ** 30).toFixed(1)} GiB`})`,
    );
  }
  await tf.ready();
  return { version: wasm.version_wasm, kernels: installed };
}

/**
 * tfjs wasm (XNNPACK, SIMD) with this project's gradient kernels. Node gets the single-threaded wasm build
 * (tfjs#3830), so more than one thread means data parallelism: `threads` replicas of the network in worker threads,
 * each training on its shard of every batch. `auto` takes the compute threads derived from the usable cores (CPU
 * affinity and the cgroup quota: all of them up to 2 cores, one left to the loader up to 4, at most 8).
 * @public
 */
export function createWasmBackendPlugin(kernels: WasmKernelSet = 'fast'): BackendPlugin {
  return {
    name: 'wasm',
    usage: 'wasm',
    help: '',
    placement: 'host',
    boundedHeap: true,
    reservesAddressSpace: true,
    dataParallel: true,
    trainer: dataParallelTrainers,
    selects: selectedByName('wasm'),
    priority: 10,
    async start(config) {
      let started;
      try {
        started = await startWasmBackend(kernels);
      } catch (e) {
        return err({
          backend: 'wasm',
          message: (e as Error).message,
          hint: `see "Resource limits" in docs/command-line.md`,
        });
      }
      const usable = await readUsableResources();
      const threads = config.threads === 'auto' ? deriveSettings(usable).threads : config.threads;
      let cpuKernels: string;
      let device = 'cpu (WebAssembly SIMD)';
      try {
        // Every replica makes the same choice from the same environment and build.
        const selection = cpuKernelSelection();
        cpuKernels = describeCpuKernels(selection);
        if (selection.kind === 'native' && started.kernels === 'fast')
          device = `cpu (native ${selection.isa === 'avx512' ? 'AVX-512' : 'AVX2'} convolutions, WebAssembly SIMD)`;
      } catch (e) {
        return err({
          backend: 'wasm',
          message: (e as Error).message,
          hint: `unset ${CPU_KERNELS_ENV}, or set it to auto or wasm`,
        });
      }
      const notes = [started.kernels === 'fast' ? cpuKernels : 'stock kernels + Conv2DBackpropFilter shim'];
      if (threads > 1)
        notes.push(
          `data-parallel: ${threads} single-threaded wasm replicas in worker threads, gradients summed every step; batch norm normalises each replica's shard (running statistics averaged); each replica first runs up to 80 throw-away steps of 4 rows (at least 10, at most twice the epoch's batches, none started after 3 s) so that the timed batches do not pay for V8 optimising its code; kernel profiles show replica 0`,
        );
      if (threads > usable.cpuCores)
        notes.push(
          `--threads ${threads} is more than the ${usable.cpuCores} usable core(s): replicas will share cores and wait for each other at every update`,
        );
      // wasm32: each instance's heap stops at 4 GiB, or at its share of the memory and address-space limits; the use
      // cases micro-batch what would not fit.
      const heapLimitBytes = wasmHeapLimit(usable.addressSpace, usable.memoryBytes, threads);
      if (heapLimitBytes < 2 ** 32)
        notes.push(`wasm heap planned at ${(heapLimitBytes / 2 ** 30).toFixed(1)} GiB per instance, inside the limits`);
      return ok({ name: 'wasm', heapLimitBytes, version: started.version, threads, device, notes });
    },
  };
}
