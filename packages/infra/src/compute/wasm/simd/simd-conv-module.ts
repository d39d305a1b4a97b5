import * as tf from '@tensorflow/tfjs-core';
import { ConvGeometryCache, type HeapAllocator } from './conv-geometry-cache';
import { CONV_KERNELS_WASM_BASE64 } from './conv-kernels.wasm';

type Info = tf.TensorInfo;
type Conv2DInfo = tf.backend_util.Conv2DInfo;

/** The part of the WebAssembly JS API used here (the project compiles without DOM types). */
interface WasmApi {
  Memory: abstract new (...args: never[]) => { readonly buffer: ArrayBuffer };
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { readonly exports: object };
}
const WA = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

/** The exports of conv-kernels.c; every pointer is a byte offset into the tfjs heap. */
interface ConvExports {
  zero(p: number, n: number): void;
  pack_w(k: number, n: number, w: number, out: number): void;
  pack_wt(k: number, n: number, w: number, out: number): void;
  conv_fwd(m: number, t: number, ci: number, co: number, ind: number, x: number, zrow: number, wp: number, y: number): void;
  conv_dx(m: number, t: number, ci: number, co: number, ind: number, dy: number, wtp: number, dx: number, mx: number): void;
  conv_dw(t: number, ci: number, co: number, start: number, pairs: number, x: number, dy: number, dw: number, dense: number): void;
}

/** What the kernels use of tfjs-backend-wasm's `BackendWasm` (its public methods plus the emscripten module). @public */
export interface WasmBackendHeap {
  readonly wasm: unknown;
  getMemoryOffset(dataId: tf.DataId): number;
  makeOutput(shape: number[], dtype: tf.DataType): Info;
  disposeData(dataId: tf.DataId, force?: boolean): boolean;
}

interface EmscriptenHeap {
  asm?: { memory?: unknown };
  _malloc?: (bytes: number) => number;
  _free?: (ptr: number) => void;
}

/** The heap of the backend's emscripten module, checked: these are internals of tfjs-backend-wasm 4.x. */
function heapOf(backend: WasmBackendHeap): HeapAllocator {
  const wasm = backend.wasm as EmscriptenHeap | undefined;
  const memory = wasm?.asm?.memory;
  if (!(memory instanceof WA.Memory)) throw new Error('SIMD conv kernels: the wasm backend has no backend.wasm.asm.memory (a WebAssembly.Memory); this tfjs-backend-wasm build does not expose its heap');
  if (typeof SharedArrayBuffer !== 'undefined' && memory.buffer instanceof SharedArrayBuffer) throw new Error('SIMD conv kernels: backend.wasm.asm.memory is shared (the multi-threaded tfjs-wasm build); they support the single-threaded build only');
  const { _malloc: malloc, _free: free } = wasm!;
  if (typeof malloc !== 'function' || typeof free !== 'function') throw new Error('SIMD conv kernels: the wasm backend has no backend.wasm._malloc/_free');
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

let compiled: object | null = null;

/**
 * conv-kernels.c instantiated on one wasm backend's own Memory: convolution forward, input gradient and
 * filter gradient straight on tensors in the tfjs heap (NHWC, HWIO filters), results made by
 * `backend.makeOutput`. Shapes must pass {@link simdConvSupports}.
 * @public
 */
export class SimdConvModule {
  private readonly heap: HeapAllocator;
  private readonly k: ConvExports;
  private readonly geometries: ConvGeometryCache;
  private zeroRow = 0;
  private zeroRowLength = 0;

  constructor(private readonly backend: WasmBackendHeap) {
    const heap = heapOf(backend);
    this.heap = heap;
    // Compiled once per process; instantiated per backend, each on its own Memory.
    compiled ??= new WA.Module(Buffer.from(CONV_KERNELS_WASM_BASE64, 'base64'));
    this.k = new WA.Instance(compiled, { env: { memory: heap.memory } }).exports as unknown as ConvExports;
    this.geometries = new ConvGeometryCache(heap);
  }

  /** y [B,Ho,Wo,Co] = conv(x [B,H,W,Ci], filter [kh,kw,Ci,Co]). */
  conv2d(x: Info, filter: Info, c: Conv2DInfo): Info {
    const g = this.geometries.get(c);
    const { inChannels: ci, outChannels: co } = c;
    const rows = g.taps * ci;
    return this.withOutput([c.batchSize, c.outHeight, c.outWidth, co], rows * co, (out, packed) => {
      this.k.pack_w(rows, co, this.at(filter), packed);
      this.k.conv_fwd(g.outPixels, g.taps, ci, co, g.ind, this.at(x), this.zeros(ci), packed, out);
    });
  }

  /** dx [B,H,W,Ci] from dy [B,Ho,Wo,Co] and filter [kh,kw,Ci,Co]. */
  conv2dBackpropInput(dy: Info, filter: Info, c: Conv2DInfo): Info {
    const g = this.geometries.get(c);
    const { inChannels: ci, outChannels: co } = c;
    const rows = g.taps * ci;
    return this.withOutput([c.batchSize, c.inHeight, c.inWidth, ci], rows * co, (out, packed) => {
      this.k.pack_wt(co, rows, this.at(filter), packed);
      this.k.conv_dx(g.outPixels, g.taps, ci, co, g.ind, this.at(dy), packed, out, g.inPixels);
    });
  }

  /** dW [kh,kw,Ci,Co] from x [B,H,W,Ci] and dy [B,Ho,Wo,Co]. */
  conv2dBackpropFilter(x: Info, dy: Info, c: Conv2DInfo): Info {
    const g = this.geometries.get(c);
    const { inChannels: ci, outChannels: co } = c;
    return this.withOutput([c.filterHeight, c.filterWidth, ci, co], 0, (out) => {
      this.k.conv_dw(g.taps, ci, co, g.start, g.pairs, this.at(x), this.at(dy), out, g.dense ? 1 : 0);
    });
  }

  /**
   * C [M,N] = op(A)·op(B) for 2-D operands on the same tiles, as a 1×1 convolution over M (or K) rows:
   * plain is the forward pass, transposed B the input gradient, transposed A the filter gradient.
   * Shapes must pass {@link simdMatMulSupports}.
   */
  matMul(a: Info, b: Info, outShape: number[], m: number, k: number, n: number, transposeA: boolean, transposeB: boolean): Info {
    const rows = (count: number) => this.geometries.get(tf.backend_util.computeConv2DInfo([count, 1, 1, 1], [1, 1, 1, 1], 1, 1, 'valid'));
    if (transposeA) {
      const g = rows(k);
      return this.withOutput(outShape, 0, (out) => this.k.conv_dw(1, m, n, g.start, g.pairs, this.at(a), this.at(b), out, 1));
    }
    const g = rows(m);
    return this.withOutput(outShape, k * n, (out, packed) => {
      if (transposeB) {
        this.k.pack_wt(k, n, this.at(b), packed);
        this.k.conv_dx(m, 1, n, k, g.ind, this.at(a), packed, out, m);
      } else {
        this.k.pack_w(k, n, this.at(b), packed);
        this.k.conv_fwd(m, 1, k, n, g.ind, this.at(a), this.zeros(k), packed, out);
      }
    });
  }

  /** Frees the cached tables (the backend's heap stays). */
  dispose(): void {
    this.geometries.clear();
    if (this.zeroRow) this.heap.free(this.zeroRow);
    this.zeroRow = 0;
    this.zeroRowLength = 0;
  }

  private at(t: Info): number {
    return this.backend.getMemoryOffset(t.dataId);
  }

  /** Runs `body` with a fresh output and `scratchFloats` of scratch, freeing the scratch, and the output if it throws. */
  private withOutput(shape: number[], scratchFloats: number, body: (out: number, scratch: number) => void): Info {
    const out = this.backend.makeOutput(shape, 'float32');
    let scratch = 0;
    try {
      scratch = scratchFloats > 0 ? this.heap.malloc(scratchFloats * 4) : 0;
      body(this.at(out), scratch);
      return out;
    } catch (e) {
      this.backend.disposeData(out.dataId, true);
      throw e;
    } finally {
      if (scratch) this.heap.free(scratch);
    }
  }

  /** A row of at least n zeros (the padding taps of the forward pass read it). */
  private zeros(n: number): number {
    if (n > this.zeroRowLength) {
      if (this.zeroRow) this.heap.free(this.zeroRow);
      this.zeroRow = this.heap.malloc(n * 4);
      this.zeroRowLength = n;
      this.k.zero(this.zeroRow, n);
    }
    return this.zeroRow;
  }
}

const modules = new WeakMap<object, SimdConvModule>();

/** The kernels on this backend, instantiated on first use (each backend instance has its own heap). @public */
export function simdConvModuleFor(backend: WasmBackendHeap): SimdConvModule {
  let m = modules.get(backend);
  if (!m) {
    m = new SimdConvModule(backend);
    modules.set(backend, m);
  }
  return m;
}

/** Which pass of a convolution. @public */
export type ConvPass = 'forward' | 'input-gradient' | 'filter-gradient';

/**
 * Whether the kernels cover this convolution: NHWC, no dilation, float32 and the channel multiples the
 * 4×8 tiles need (output channels in 8-wide panels; the input gradient's panels must not straddle two taps;
 * the filter gradient tiles 4 input channels by 8 output channels).
 * @public
 */
export function simdConvSupports(pass: ConvPass, c: Conv2DInfo): boolean {
  if (c.dataFormat !== 'channelsLast' || c.dilationHeight !== 1 || c.dilationWidth !== 1) return false;
  if (c.batchSize * c.outHeight * c.outWidth * c.inChannels * c.outChannels === 0) return false;
  if (pass === 'forward') return c.outChannels % 8 === 0;
  if (pass === 'input-gradient') return c.inChannels % 8 === 0;
  return c.inChannels % 4 === 0 && c.outChannels % 8 === 0;
}

/**
 * Whether the tiles cover C [M,N] = op(A)·op(B): N in 8-wide panels, M in 4-row tiles when A is transposed,
 * not both transposed. Small products gain most: XNNPACK takes ~0.25 ms for a [1,256]·[256,48] (it packs B
 * and sets up an operator on every call).
 * @public
 */
export function simdMatMulSupports(m: number, k: number, n: number, transposeA: boolean, transposeB: boolean): boolean {
  if ((transposeA && transposeB) || m * k * n === 0 || n % 8 !== 0) return false;
  return !transposeA || m % 4 === 0;
}
