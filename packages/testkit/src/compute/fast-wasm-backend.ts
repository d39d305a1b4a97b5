import * as tf from '@tensorflow/tfjs-core';
import { installWasmKernels } from '@maou/bench-compute';

/**
 * Our wasm kernels as the backend of a spec: `beforeAll(wasm.setUp)` registers them and selects wasm,
 * `afterAll(wasm.tearDown)` restores the stock kernels.
 */
export function fastWasmBackend(): { setUp: () => Promise<void>; tearDown: () => void } {
  let restore = (): void => undefined;
  return {
    setUp: async () => {
      restore = installWasmKernels('fast');
      await tf.setBackend('wasm');
    },
    tearDown: () => restore(),
  };
}
