import type * as tf from '@tensorflow/tfjs-core';
import { FUSED_KERNELS_WASM_BASE64 } from './fused-kernels.wasm';
import { type HeapAllocator, heapOutput, perBackend, tfjsWasmHeap, WA, type WasmBackendHeap } from './wasm-heap';
import { type AdamWStep } from '../../../../fused-kernel-inputs';

type Info = tf.TensorInfo;

/** The exports of fused-kernels.c; every pointer is a byte offset into the tfjs heap. */
interface FusedExports {
  bn_train(
    rows: number,
    c: number,
    x: number,
    gamma: number,
    beta: number,
    eps: number,
    y: number,
    xhat: number,
    mean: number,
    variance: number,
    rstd: number,
    relu: number,
    runMeanIn: number,
    runVarIn: number,
    runMeanOut: number,
    runVarOut: number,
    keep: number,
    momentum: number,
    unbias: number,
  ): void;
  bn_grad(
    rows: number,
    c: number,
    dy: number,
    xhat: number,
    rstd: number,
    gamma: number,
    dx: number,
    dGamma: number,
    dBeta: number,
    scratch: number,
    y: number,
  ): void;
  sum_squares(count: number, x: number): number;
  scale(count: number, src: number, dst: number, k: number): void;
  gelu(count: number, x: number, y: number, cdf: number): void;
  gelu_grad(count: number, dy: number, x: number, cdf: number, dx: number): void;
  dropout_mask(count: number, key: number, threshold: number, scale: number, out: number): void;
  ln_fwd(
    rows: number,
    c: number,
    x: number,
    gamma: number,
    beta: number,
    eps: number,
    y: number,
    xhat: number,
    rstd: number,
  ): void;
  ln_grad(
    rows: number,
    c: number,
    dy: number,
    xhat: number,
    rstd: number,
    gamma: number,
    dx: number,
    dGamma: number,
    dBeta: number,
    scratch: number,
  ): void;
  copy_rows(rows: number, width: number, src: number, srcStride: number, dst: number, dstStride: number): void;
  adamw(
    count: number,
    p: number,
    g: number,
    m: number,
    v: number,
    po: number,
    mo: number,
    vo: number,
    beta1: number,
    oneMinusBeta1: number,
    beta2: number,
    oneMinusBeta2: number,
    decay: number,
    bc2: number,
    eps: number,
    step: number,
  ): void;
}

/** Batch-norm forward options: a fused ReLU, and the running statistics to update (torch's momentum). @public */
export interface BatchNormTrainOptions {
  readonly relu: boolean;
  readonly running: { readonly mean: Info; readonly variance: Info; readonly momentum: number } | null;
}

let compiled: object | null = null;

/**
 * fused-kernels.c instantiated on one wasm backend's own Memory: batch-norm training forward (with ReLU and
 * running statistics) and backward over channels-last rows × C, one AdamW update, and global-norm gradient
 * clipping, exact GELU and layer norm with their gradients, each one pass (or two) over the heap instead of a dozen tfjs ops; also the row copies of concat
 * and split. Outputs are fresh `backend.makeOutput` buffers.
 * Callers check shapes and dtypes first.
 * @public
 */
export class SimdFusedModule {
  private readonly heap: HeapAllocator;
  private readonly k: FusedExports;

  constructor(private readonly backend: WasmBackendHeap) {
    this.heap = tfjsWasmHeap(backend);
    compiled ??= new WA.Module(Buffer.from(FUSED_KERNELS_WASM_BASE64, 'base64'));
    this.k = new WA.Instance(compiled, { env: { memory: this.heap.memory } }).exports as unknown as FusedExports;
  }

  /**
   * [y, xhat, mean, variance, rstd] of x [..., C] with per-channel gamma and beta [C] (y after a ReLU with
   * `relu`), then with `running` the new running mean and variance [C]: old·(1 − momentum) + batch·momentum,
   * the variance unbiased by n/(n − 1), each scalar rounded to float32 as tfjs's scalar operands.
   */
  batchNormTrain(x: Info, gamma: Info, beta: Info, eps: number, o: BatchNormTrainOptions): Info[] {
    const c = x.shape[x.shape.length - 1];
    const rows = sizeOf(x) / c;
    const run = o.running;
    const shapes = [x.shape, x.shape, [c], [c], [c], ...(run ? [run.mean.shape, run.variance.shape] : [])];
    return this.outputs(shapes, 0, ([y, xhat, mean, variance, rstd, runMean = 0, runVar = 0]) => {
      const [inMean, inVar] = run ? [this.at(run.mean), this.at(run.variance)] : [0, 0];
      const [keep, momentum, unbias] = run ? [1 - run.momentum, run.momentum, rows / Math.max(rows - 1, 1)] : [0, 0, 0];
      this.k.bn_train(
        rows,
        c,
        this.at(x),
        this.at(gamma),
        this.at(beta),
        eps,
        y,
        xhat,
        mean,
        variance,
        rstd,
        o.relu ? 1 : 0,
        inMean,
        inVar,
        runMean,
        runVar,
        keep,
        momentum,
        unbias,
      );
    });
  }

  /** [dx, dGamma, dBeta] from dy and the forward's xhat (both [..., C]), rstd and gamma [C]; dy masked by y > 0 when the forward's output y after a ReLU is given. */
  batchNormGrad(dy: Info, xhat: Info, rstd: Info, gamma: Info, y: Info | null): Info[] {
    const c = dy.shape[dy.shape.length - 1];
    const rows = sizeOf(dy) / c;
    return this.outputs([dy.shape, gamma.shape, gamma.shape], 3 * c, ([dx, dGamma, dBeta], scratch) => {
      this.k.bn_grad(
        rows,
        c,
        this.at(dy),
        this.at(xhat),
        this.at(rstd),
        this.at(gamma),
        dx,
        dGamma,
        dBeta,
        scratch,
        y ? this.at(y) : 0,
      );
    });
  }

  /**
   * torch's clip_grad_norm_ over all `grads`: each scaled by min(1, maxNorm / (‖g‖₂ + 1e-6)), the norm over
   * every value of every tensor. The per-tensor sums of squares are added in order in float32, and the
   * coefficient is computed in float32, as the composite ops do.
   */
  clipByGlobalNorm(grads: Info[], maxNorm: number): Info[] {
    return this.outputs(
      grads.map((g) => g.shape),
      0,
      (outs) => {
        let squares = 0;
        for (const g of grads) squares = Math.fround(squares + this.k.sum_squares(sizeOf(g), this.at(g)));
        const norm = Math.fround(Math.sqrt(squares));
        const coef = Math.min(Math.fround(Math.fround(maxNorm) / Math.fround(norm + Math.fround(1e-6))), 1);
        grads.forEach((g, i) => this.k.scale(sizeOf(g), this.at(g), outs[i], coef));
      },
    );
  }

  /** [param, m, v] after one AdamW update of param with grad. */
  adamW(param: Info, grad: Info, m: Info, v: Info, s: AdamWStep): Info[] {
    const bc1 = 1 - s.beta1 ** s.step;
    const bc2 = Math.sqrt(1 - s.beta2 ** s.step);
    const decay = s.weightDecay > 0 ? 1 - s.lr * s.weightDecay : 1;
    return this.outputs([param.shape, param.shape, param.shape], 0, ([po, mo, vo]) => {
      this.k.adamw(
        sizeOf(param),
        this.at(param),
        this.at(grad),
        this.at(m),
        this.at(v),
        po,
        mo,
        vo,
        s.beta1,
        1 - s.beta1,
        s.beta2,
        1 - s.beta2,
        decay,
        bc2,
        s.eps,
        s.lr / bc1,
      );
    });
  }

  /** [y, Φ(x)] of exact GELU y = x·Φ(x). */
  gelu(x: Info): Info[] {
    return this.outputs([x.shape, x.shape], 0, ([y, cdf]) => this.k.gelu(sizeOf(x), this.at(x), y, cdf));
  }

  /** GELU's input gradient dy·(Φ(x) + x·φ(x)), Φ(x) from the forward pass. */
  geluGrad(dy: Info, x: Info, cdf: Info): Info {
    const [dx] = this.outputs([x.shape], 0, ([out]) =>
      this.k.gelu_grad(sizeOf(x), this.at(dy), this.at(x), this.at(cdf), out),
    );
    return dx;
  }

  /** A dropout keep-mask of `shape`, the engine's `dropoutMask` (key, threshold and scale from `dropoutKeep`). */
  dropoutMask(shape: number[], key: number, threshold: number, scale: number): Info {
    const count = shape.reduce((a, b) => a * b, 1);
    const [mask] = this.outputs([shape], 0, ([out]) => this.k.dropout_mask(count, key, threshold, scale, out));
    return mask;
  }

  /** [y, xhat, rstd] of layer norm over the last axis of x (rstd shaped [..., 1]). */
  layerNorm(x: Info, gamma: Info, beta: Info, eps: number): Info[] {
    const c = x.shape[x.shape.length - 1]!;
    const rows = sizeOf(x) / c;
    const rstdShape = [...x.shape.slice(0, -1), 1];
    return this.outputs([x.shape, x.shape, rstdShape], 0, ([y, xhat, rstd]) =>
      this.k.ln_fwd(rows, c, this.at(x), this.at(gamma), this.at(beta), eps, y, xhat, rstd),
    );
  }

  /** [dx, dGamma, dBeta] of layer norm from dy, the forward's xhat and rstd, and γ. */
  layerNormGrad(dy: Info, xhat: Info, rstd: Info, gamma: Info): Info[] {
    const c = dy.shape[dy.shape.length - 1]!;
    const rows = sizeOf(dy) / c;
    return this.outputs([dy.shape, [c], [c]], 2 * c, ([dx, dGamma, dBeta], scratch) =>
      this.k.ln_grad(rows, c, this.at(dy), this.at(xhat), this.at(rstd), this.at(gamma), dx, dGamma, dBeta, scratch),
    );
  }

  /** Concatenation of float32 `parts` along `axis` (callers check that their other dims agree). */
  concat(parts: Info[], axis: number, outShape: number[]): Info {
    const outer = sizeOf({ shape: outShape.slice(0, axis) } as Info);
    const widths = parts.map((p) => sizeOf({ shape: p.shape.slice(axis) } as Info));
    const total = widths.reduce((a, b) => a + b, 0);
    const [result] = this.outputs([outShape], 0, ([out]) => {
      let offset = 0;
      parts.forEach((p, i) => {
        this.k.copy_rows(outer, widths[i], this.at(p), widths[i], out + offset * 4, total);
        offset += widths[i];
      });
    });
    return result;
  }

  /** x split along `axis` into parts of `sizes` (summing to x's dim there). */
  split(x: Info, sizes: number[], axis: number): Info[] {
    const outer = sizeOf({ shape: x.shape.slice(0, axis) } as Info);
    const inner = sizeOf({ shape: x.shape.slice(axis + 1) } as Info);
    const total = x.shape[axis] * inner;
    const shapes = sizes.map((s) => x.shape.map((d, i) => (i === axis ? s : d)));
    return this.outputs(shapes, 0, (outs) => {
      let offset = 0;
      outs.forEach((out, i) => {
        this.k.copy_rows(outer, sizes[i] * inner, this.at(x) + offset * 4, total, out, sizes[i] * inner);
        offset += sizes[i] * inner;
      });
    });
  }

  private at(t: Info): number {
    return this.backend.getMemoryOffset(t.dataId);
  }

  /** Runs `body` on fresh float32 outputs and `scratchFloats` of scratch; frees the scratch, and the outputs if it throws. */
  private outputs(shapes: number[][], scratchFloats: number, body: (outs: number[], scratch: number) => void): Info[] {
    const outs: Info[] = [];
    let scratch = 0;
    try {
      for (const shape of shapes) outs.push(heapOutput(this.backend, shape));
      scratch = scratchFloats > 0 ? this.heap.malloc(scratchFloats * 4) : 0;
      // Offsets are read after every allocation: they stay valid when the heap grows (only views detach).
      body(
        outs.map((o) => this.at(o)),
        scratch,
      );
      return outs;
    } catch (e) {
      for (const o of outs) this.backend.disposeData(o.dataId, true);
      throw e;
    } finally {
      if (scratch) this.heap.free(scratch);
    }
  }
}

const sizeOf = (t: Info) => t.shape.reduce((a, b) => a * b, 1);

/** The fused kernels on this backend, instantiated on first use (each backend instance has its own heap). @public */
export const simdFusedModuleFor = perBackend((backend) => new SimdFusedModule(backend));
