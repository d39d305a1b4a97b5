import {
  getKernel,
  registerKernel,
  Sum,
  unregisterKernel,
  type KernelBackend,
  type NamedAttrMap,
  type NamedTensorInfoMap,
  type SumAttrs,
  type TensorInfo,
} from '@tensorflow/tfjs-core';

/** tfjs-backend-webgpu generates shaders for tensors of rank 6 at most. */
const MAX_RANK = 6;

/**
 * Merges runs of neighbouring axes that are all reduced or all kept, so a reduction over a tensor of
 * any rank becomes one over a tensor of rank at most 2×(number of runs). Returns the merged shape and
 * the merged axes to reduce.
 * @public
 */
export function mergeReductionAxes(
  shape: readonly number[],
  axes: readonly number[],
): { shape: number[]; axes: number[] } {
  const reduced = new Set(axes.map((a) => (a < 0 ? a + shape.length : a)));
  const merged: number[] = [];
  const mergedAxes: number[] = [];
  let previous: boolean | null = null;
  shape.forEach((size, i) => {
    const r = reduced.has(i);
    if (r === previous) merged[merged.length - 1] *= size;
    else {
      merged.push(size);
      if (r) mergedAxes.push(merged.length - 1);
    }
    previous = r;
  });
  return { shape: merged, axes: mergedAxes };
}

/**
 * Lets `Sum` take tensors above rank 6 on `backendName` by merging axes first (a gradient of `tile`
 * reshapes a 4-D tensor to rank 8, which the stock webgpu Sum cannot compile). Returns the undo.
 * @public
 */
export function registerRankSafeSum(backendName: string): () => void {
  const stock = getKernel(Sum, backendName);
  if (!stock) return () => undefined;
  unregisterKernel(Sum, backendName);
  registerKernel({
    kernelName: Sum,
    backendName,
    kernelFunc: ({ inputs, backend, attrs }) => {
      const { x } = inputs as unknown as { x: TensorInfo };
      if (x.shape.length <= MAX_RANK) return stock.kernelFunc({ inputs, backend, attrs });
      const { axis, keepDims } = attrs as unknown as SumAttrs;
      const all = x.shape.map((_, i) => i);
      const axes = axis == null ? all : Array.isArray(axis) ? axis : [axis];
      const m = mergeReductionAxes(x.shape, axes);
      const kb = backend as KernelBackend;
      const run = (name: string, ins: NamedTensorInfoMap, at: object): TensorInfo =>
        getKernel(name, backendName).kernelFunc({ inputs: ins, backend: kb, attrs: at as NamedAttrMap }) as TensorInfo;
      const flat = run('Reshape', { x }, { shape: m.shape });
      const sum = stock.kernelFunc({
        inputs: { x: flat },
        backend: kb,
        attrs: { axis: m.axes, keepDims: false },
      }) as TensorInfo;
      const norm = new Set(axes.map((a) => (a < 0 ? a + x.shape.length : a)));
      const outShape = x.shape.flatMap((s, i) => (norm.has(i) ? (keepDims ? [1] : []) : [s]));
      const out = run('Reshape', { x: sum }, { shape: outShape });
      kb.disposeData(flat.dataId);
      kb.disposeData(sum.dataId);
      return out;
    },
  });
  return () => {
    unregisterKernel(Sum, backendName);
    registerKernel(stock);
  };
}
