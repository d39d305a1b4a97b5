import * as tf from '@tensorflow/tfjs-core';
import { ConvGeometryCache } from './conv-geometry-cache';
import {
  cpuKernelSelection,
  type ConvGeometry,
  type ConvKernels,
  type ConvPairs,
  type CpuKernelSelection,
  NATIVE_ISAS,
} from '../../native/native-kernels';
import { CONV_KERNELS_WASM_BASE64 } from './conv-kernels.wasm';
import { type HeapAllocator, heapOutput, perBackend, tfjsWasmHeap, WA, type WasmBackendHeap } from './wasm-heap';

type Info = tf.TensorInfo;
type Conv2DInfo = tf.backend_util.Conv2DInfo;

/** The exports of conv-kernels.c; every pointer is a byte offset into the tfjs heap. */
interface ConvExports extends ConvKernels<[], []> {
  zero(p: number, n: number): void;
  pack_w(k: number, n: number, w: number, out: number): void;
  pack_wt(k: number, n: number, w: number, out: number): void;
}

/**
 * The three passes on one set of kernels; every pointer is a byte offset into the tfjs heap, `packed` is K·N floats
 * of scratch for the packed weights, and mx/my are the pixel (row) counts of x and dy.
 */
interface ConvPasses {
  forward(...args: [...ConvGeometry, x: number, mx: number, zrow: number, w: number, packed: number, y: number]): void;
  inputGradient(...args: [...ConvGeometry, dy: number, w: number, packed: number, dx: number, mx: number]): void;
  filterGradient(
    ...args: [...ConvPairs, x: number, mx: number, dy: number, my: number, dw: number, dense: boolean]
  ): void;
}

function wasmPasses(k: ConvExports): ConvPasses {
  return {
    forward: (m, t, ci, co, ind, x, _mx, zrow, w, packed, y) => {
      k.pack_w(t * ci, co, w, packed);
      k.conv_fwd(m, t, ci, co, ind, x, zrow, packed, y);
    },
    inputGradient: (m, t, ci, co, ind, dy, w, packed, dx, mx) => {
      k.pack_wt(co, t * ci, w, packed);
      k.conv_dx(m, t, ci, co, ind, dy, packed, dx, mx);
    },
    filterGradient: (t, ci, co, start, pairs, x, _mx, dy, _my, dw, dense) =>
      k.conv_dw(t, ci, co, start, pairs, x, dy, dw, dense ? 1 : 0),
  };
}

/** The native addon's kernels in place on the heap: each call passes the Memory's current buffer (growth replaces it). */
function nativePasses(
  s: Extract<CpuKernelSelection, { kind: 'native' }>,
  memory: { readonly buffer: ArrayBuffer },
): ConvPasses {
  const { addon } = s;
  const isa = NATIVE_ISAS.indexOf(s.isa);
  return {
    forward: (m, t, ci, co, ind, x, mx, zrow, w, packed, y) => {
      addon.pack(isa, memory.buffer, t * ci, co, co, 0, w, packed);
      addon.conv_fwd(isa, memory.buffer, m, t, ci, co, ind, x, mx, zrow, packed, y);
    },
    inputGradient: (m, t, ci, co, ind, dy, w, packed, dx, mx) => {
      // Panels of the transposed weights stay within one tap's ci columns.
      addon.pack(isa, memory.buffer, co, t * ci, ci, 1, w, packed);
      addon.conv_dx(isa, memory.buffer, m, t, ci, co, ind, dy, packed, dx, mx);
    },
    filterGradient: (t, ci, co, start, pairs, x, mx, dy, my, dw, dense) =>
      addon.conv_dw(isa, memory.buffer, t, ci, co, start, pairs, x, mx, dy, my, dw, dense ? 1 : 0),
  };
}

let compiled: object | null = null;

/**
 * Convolution forward, input gradient and filter gradient straight on tensors in one wasm backend's heap (NHWC, HWIO
 * filters), results made by `backend.makeOutput`: on the native addon's kernels where this thread selected them
 * (native/native-kernels.ts), else on conv-kernels.c instantiated on the backend's own Memory. Both read the
 * same geometry tables. Callers check shapes first (simd-conv-kernels.ts).
 * @public
 */
export class SimdConvModule {
  private readonly heap: HeapAllocator;
  private readonly k: ConvExports;
  private passesOf: CpuKernelSelection | null = null;
  private chosen: ConvPasses | null = null;
  private readonly geometries: ConvGeometryCache;
  private zeroRow = 0;
  private zeroRowLength = 0;

  constructor(private readonly backend: WasmBackendHeap) {
    const heap = tfjsWasmHeap(backend);
    this.heap = heap;
    // Compiled once per process; instantiated per backend, each on its own Memory.
    compiled ??= new WA.Module(Buffer.from(CONV_KERNELS_WASM_BASE64, 'base64'));
    this.k = new WA.Instance(compiled, { env: { memory: heap.memory } }).exports as unknown as ConvExports;
    this.geometries = new ConvGeometryCache(heap);
  }

  /** The passes of this thread's kernel selection (native or WebAssembly; see native-kernels.ts). */
  private get passes(): ConvPasses {
    const s = cpuKernelSelection();
    if (s !== this.passesOf || !this.chosen) {
      this.chosen = s.kind === 'native' ? nativePasses(s, this.heap.memory) : wasmPasses(this.k);
      this.passesOf = s;
    }
    return this.chosen;
  }

  /** y [B,Ho,Wo,Co] = conv(x [B,H,W,Ci], filter [kh,kw,Ci,Co]). */
  conv2d(x: Info, filter: Info, c: Conv2DInfo): Info {
    const g = this.geometries.get(c);
    const { inChannels: ci, outChannels: co } = c;
    const rows = g.taps * ci;
    return this.withOutput([c.batchSize, c.outHeight, c.outWidth, co], rows * co, (out, packed) =>
      this.passes.forward(
        g.outPixels,
        g.taps,
        ci,
        co,
        g.ind,
        this.at(x),
        g.inPixels,
        this.zeros(ci),
        this.at(filter),
        packed,
        out,
      ),
    );
  }

  /** dx [B,H,W,Ci] from dy [B,Ho,Wo,Co] and filter [kh,kw,Ci,Co]. */
  conv2dBackpropInput(dy: Info, filter: Info, c: Conv2DInfo): Info {
    const g = this.geometries.get(c);
    const { inChannels: ci, outChannels: co } = c;
    const rows = g.taps * ci;
    return this.withOutput([c.batchSize, c.inHeight, c.inWidth, ci], rows * co, (out, packed) =>
      this.passes.inputGradient(
        g.outPixels,
        g.taps,
        ci,
        co,
        g.ind,
        this.at(dy),
        this.at(filter),
        packed,
        out,
        g.inPixels,
      ),
    );
  }

  /** dW [kh,kw,Ci,Co] from x [B,H,W,Ci] and dy [B,Ho,Wo,Co]. */
  conv2dBackpropFilter(x: Info, dy: Info, c: Conv2DInfo): Info {
    const g = this.geometries.get(c);
    const { inChannels: ci, outChannels: co } = c;
    return this.withOutput([c.filterHeight, c.filterWidth, ci, co], 0, (out) =>
      this.passes.filterGradient(
        g.taps,
        ci,
        co,
        g.start,
        g.pairs,
        this.at(x),
        g.inPixels,
        this.at(dy),
        g.outPixels,
        out,
        g.dense,
      ),
    );
  }

  /**
   * C [batch,M,N] = op(A)·op(B) on the same tiles, one 1×1 convolution over M (or K) rows per matrix pair: plain
   * is the forward pass, transposed B the input gradient, transposed A the filter gradient. A step of 0 reuses
   * one operand for every pair (broadcast). Where N is not a multiple of 8 (or M of 4 with A transposed), B (and
   * A) are copied zero-padded and the padded product's rows copied back: O(M·N + K·N) moves against M·K·N
   * multiply-adds. Callers check shapes first (simd-conv-kernels.ts).
   */
  matMul(a: Info, b: Info, outShape: number[], p: MatMulPlan): Info {
    const { batch, m, k, n, transposeA, transposeB } = p;
    const n8 = Math.ceil(n / 8) * 8;
    const mp = transposeA ? Math.ceil(m / 4) * 4 : m;
    const padB = n8 !== n ? k * n8 : 0;
    const padA = mp !== m ? k * mp : 0;
    const padC = padB || padA ? mp * n8 : 0;
    const packed = transposeA ? 0 : k * n8;
    const g = this.geometries.get(
      tf.backend_util.computeConv2DInfo([transposeA ? k : m, 1, 1, 1], [1, 1, 1, 1], 1, 1, 'valid'),
    );
    return this.withOutput(outShape, packed + padB + padA + padC, (out, scratch) => {
      const [bBuf, aBuf, cBuf] = [
        scratch + packed * 4,
        scratch + (packed + padB) * 4,
        scratch + (packed + padB + padA) * 4,
      ];
      const zrow = transposeA || transposeB ? 0 : this.zeros(k); // may grow the heap: before the view
      const f32 = new Float32Array(this.heap.memory.buffer);
      if (padB + padA) f32.fill(0, bBuf / 4, (bBuf + (padB + padA) * 4) / 4);
      for (let i = 0; i < batch; i++) {
        let x = this.at(a) + i * p.aStep * 4;
        let w = this.at(b) + i * p.bStep * 4;
        if (padB && transposeB) f32.copyWithin(bBuf / 4, w / 4, w / 4 + n * k);
        else if (padB) copyRows(f32, w, n, bBuf, n8, k, n);
        if (padB) w = bBuf;
        if (padA) copyRows(f32, x, m, aBuf, mp, k, m);
        if (padA) x = aBuf;
        const y = padC ? cBuf : out + i * m * n * 4;
        if (transposeA) this.passes.filterGradient(1, mp, n8, g.start, g.pairs, x, k, w, k, y, true);
        else if (transposeB) this.passes.inputGradient(m, 1, n8, k, g.ind, x, w, scratch, y, m);
        else this.passes.forward(m, 1, k, n8, g.ind, x, m, zrow, w, scratch, y);
        if (padC) copyRows(f32, cBuf, n8, out + i * m * n * 4, n, m, n);
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
    const out = heapOutput(this.backend, shape);
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

/** One BatchMatMul's matrix pairs: `batch` products of op(A) [M,K] and op(B) [K,N], operands `aStep`/`bStep` floats apart. @public */
export interface MatMulPlan {
  readonly batch: number;
  readonly aStep: number;
  readonly bStep: number;
  readonly m: number;
  readonly k: number;
  readonly n: number;
  readonly transposeA: boolean;
  readonly transposeB: boolean;
}

/** Copies `rows` rows of `width` floats between heap byte offsets with row strides in floats. */
function copyRows(
  f32: Float32Array,
  src: number,
  srcStride: number,
  dst: number,
  dstStride: number,
  rows: number,
  width: number,
): void {
  for (let r = 0; r < rows; r++) {
    const from = src / 4 + r * srcStride;
    f32.copyWithin(dst / 4 + r * dstStride, from, from + width);
  }
}

/** The kernels on this backend, instantiated on first use (each backend instance has its own heap). @public */
export const simdConvModuleFor = perBackend((backend) => new SimdConvModule(backend));
