import type * as tf from '@tensorflow/tfjs-core';

/** The slice of the WebAssembly JS API used here (the project compiles without DOM types). @internal */
export interface WasmApi {
  Memory: abstract new (...args: never[]) => { readonly buffer: ArrayBuffer };
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { readonly exports: object };
}
/** The global WebAssembly namespace, typed. @internal */
export const WA = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

/** malloc/free on the tfjs wasm heap, and its Memory (whose buffer is replaced when the heap grows). @public */
export interface HeapAllocator {
  readonly memory: { readonly buffer: ArrayBuffer };
  malloc(bytes: number): number;
  free(ptr: number): void;
}

/** What the kernels use of tfjs-backend-wasm's `BackendWasm` (its public methods plus the emscripten module). @public */
export interface WasmBackendHeap {
  readonly wasm: unknown;
  getMemoryOffset(dataId: tf.DataId): number;
  makeOutput(shape: number[], dtype: tf.DataType): tf.TensorInfo;
  disposeData(dataId: tf.DataId, force?: boolean): boolean;
}

interface EmscriptenHeap {
  asm?: { memory?: unknown };
  _malloc?: (bytes: number) => number;
  _free?: (ptr: number) => void;
}

/** The heap of the backend's emscripten module, checked: these are internals of tfjs-backend-wasm 4.x. @public */
export function tfjsWasmHeap(backend: WasmBackendHeap): HeapAllocator {
  const wasm = backend.wasm as EmscriptenHeap | undefined;
  const memory = wasm?.asm?.memory;
  if (!(memory instanceof WA.Memory))
    throw new Error(
      'SIMD conv kernels: the wasm backend has no backend.wasm.asm.memory (a WebAssembly.Memory); this tfjs-backend-wasm build does not expose its heap',
    );
  if (typeof SharedArrayBuffer !== 'undefined' && memory.buffer instanceof SharedArrayBuffer)
    throw new Error(
      'SIMD conv kernels: backend.wasm.asm.memory is shared (the multi-threaded tfjs-wasm build); they support the single-threaded build only',
    );
  const { _malloc: malloc, _free: free } = wasm!;
  if (typeof malloc !== 'function' || typeof free !== 'function')
    throw new Error('SIMD conv kernels: the wasm backend has no backend.wasm._malloc/_free');
  return {
    memory,
    malloc: (bytes) => {
      const p = malloc(bytes) >>> 0;
      if (p === 0) throw new Error(`SIMD conv kernels: malloc(${bytes}) failed on the wasm heap`);
      return p;
    },
    free: (p) => free(p),
  };
}

/** One `make(backend)` per backend instance (each has its own heap), built on first use. @internal */
export const perBackend = <T>(make: (backend: WasmBackendHeap) => T): ((backend: WasmBackendHeap) => T) => {
  const made = new WeakMap<object, T>();
  return (backend) => {
    let m = made.get(backend);
    if (m === undefined) {
      m = make(backend);
      made.set(backend, m);
    }
    return m;
  };
};

/**
 * `backend.makeOutput`, refusing the null block tfjs hands out when its heap is exhausted (it does not check):
 * a kernel writing there would corrupt memory or trap with "memory access out of bounds".
 * @internal
 */
export function heapOutput(backend: WasmBackendHeap, shape: number[]): tf.TensorInfo {
  const out = backend.makeOutput(shape, 'float32');
  if (shape.every((d) => d > 0) && backend.getMemoryOffset(out.dataId) === 0) {
    backend.disposeData(out.dataId, true);
    const mb = (shape.reduce((a, b) => a * b, 1) * 4) / 2 ** 20;
    throw new Error(
      `the wasm heap (at most 4 GiB per replica) has no room for a ${mb.toFixed(0)} MiB tensor [${shape.join(', ')}]: lower --batch-size or raise --threads`,
    );
  }
  return out;
}
