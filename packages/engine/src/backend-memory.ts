import * as tf from '@tensorflow/tfjs-core';

interface BackendWithHeap {
  readonly wasm?: { readonly HEAPU8?: Uint8Array };
}

/**
 * The memory figure the active backend can give after a step: tfjs-wasm's heap size (it only grows, so it is the
 * peak so far, and the heap is what the 4 GiB wasm32 limit bounds); WebGPU's allocated GPU buffers (its pool keeps
 * freed buffers for reuse, so this is close to the peak too); elsewhere the bytes of live tensors.
 * @public
 */
export const backendMemoryBytes = (): number => {
  const heap = (tf.backend() as BackendWithHeap).wasm?.HEAPU8?.byteLength;
  if (heap !== undefined) return heap;
  const m = tf.memory() as tf.MemoryInfo & { numBytesAllocatedInGPU?: number };
  return m.numBytesAllocatedInGPU ?? m.numBytes;
};
