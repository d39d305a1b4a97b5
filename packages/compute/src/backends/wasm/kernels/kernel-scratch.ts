import type * as tf from '@tensorflow/tfjs-core';

/** What a backend must offer for kernels composed from other kernels (every tfjs backend does). */
export interface RefCountedBackend extends tf.KernelBackend {
  incRef(dataId: tf.DataId): void;
  disposeData(dataId: tf.DataId, force?: boolean): boolean;
}

/**
 * Composes kernels directly on TensorInfos, without engine Tensors: each intermediate output owns one
 * backend reference and is released by `free()`; the kernel's result is taken out with `keep()`.
 * Working below the engine avoids the refcount pitfall of wrapping inputs as Tensors
 * (`makeTensorFromTensorInfo` does not take a backend reference, so disposing the wrapper frees the
 * caller's input).
 * @public
 */
export class KernelScratch {
  private readonly temps: tf.TensorInfo[] = [];

  constructor(
    readonly backend: RefCountedBackend,
    private readonly kernels: ReadonlyMap<string, tf.KernelFunc>,
  ) {}

  run(name: string, inputs: tf.NamedTensorInfoMap, attrs: tf.NamedAttrMap = {}): tf.TensorInfo {
    const fn = this.kernels.get(name);
    if (!fn) throw new Error(`no stock ${name} kernel on this backend`);
    const out = fn({ inputs, backend: this.backend, attrs }) as tf.TensorInfo;
    this.temps.push(out);
    return out;
  }

  /** Same data, another shape (row-major layouts only), owned by the scratch like any output. */
  reshape(x: tf.TensorInfo, shape: number[]): tf.TensorInfo {
    this.backend.incRef(x.dataId);
    const out = { dataId: x.dataId, shape, dtype: x.dtype };
    this.temps.push(out);
    return out;
  }

  transpose(x: tf.TensorInfo, perm: number[]): tf.TensorInfo {
    return this.run('Transpose', { x }, { perm });
  }

  /** Untransposed matrix product of rank-3 operands (the fast XNNPACK path on wasm). */
  matMul(a: tf.TensorInfo, b: tf.TensorInfo): tf.TensorInfo {
    return this.run('BatchMatMul', { a, b }, { transposeA: false, transposeB: false });
  }

  keep(x: tf.TensorInfo): tf.TensorInfo {
    const i = this.temps.indexOf(x);
    if (i >= 0) this.temps.splice(i, 1);
    return x;
  }

  free(): void {
    for (const t of this.temps) this.backend.disposeData(t.dataId);
    this.temps.length = 0;
  }
}

/** Runs `body` with a scratch, always releasing its intermediates. @public */
export function withScratch(
  args: tf.KernelConfig['kernelFunc'] extends (a: infer A) => unknown ? A : never,
  kernels: ReadonlyMap<string, tf.KernelFunc>,
  body: (s: KernelScratch) => tf.TensorInfo,
): tf.TensorInfo {
  const s = new KernelScratch(args.backend as RefCountedBackend, kernels);
  try {
    return s.keep(body(s));
  } finally {
    s.free();
  }
}
