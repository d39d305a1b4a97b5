import {
  Conv2DBackpropFilter,
  getKernel,
  registerKernel,
  unregisterKernel,
  type Conv2DBackpropFilterAttrs,
  type KernelBackend,
  type KernelConfig,
  type NamedAttrMap,
  type NamedTensorInfoMap,
  type TensorInfo,
} from '@tensorflow/tfjs-core';
import { convGradientInfo, im2colBySlices } from '../../conv-im2col';
import type { Im2Col } from './filter-im2col.program';

/** Enough 32x32 matmul tiles to fill a large GPU (an H100 has 132 SMs). */
const TARGET_TILES = 1024;
/** Below this many rows per chunk, splitting costs more than it gains. */
const MIN_ROWS_PER_CHUNK = 256;

type Run = (name: string, inputs: NamedTensorInfoMap | TensorInfo[], attrs?: object) => TensorInfo;

/**
 * Number of batch chunks the reduction over (batch, row, column) is split into: the stock tfjs
 * matmul puts one 32x32 output tile per workgroup, and a filter gradient has a small output
 * (kh*kw*Ci x Co) with a long reduction, so without a split a big GPU runs only a few workgroups.
 * @public
 */
export function chunksFor(batch: number, rowsPerSample: number, k: number, co: number): number {
  const tiles = Math.ceil(k / 32) * Math.ceil(co / 32);
  let best = 1;
  for (let s = 1; s <= batch; s += 1) {
    if (batch % s !== 0 || (batch / s) * rowsPerSample < MIN_ROWS_PER_CHUNK) continue;
    best = s;
    if (s * tiles >= TARGET_TILES) break;
  }
  return best;
}

/**
 * Filter gradient as im2col + one batched matrix product, built from the backend's own kernels.
 * The stock webgpu shader gives each thread one filter element and loops over every
 * (batch, row, column) serially: on lavapipe and on an H100 it is the slowest kernel of a step.
 * @public
 */
export function conv2dFilterGradient(
  backend: KernelBackend,
  backendName: string,
  inputs: { x: TensorInfo; dy: TensorInfo },
  attrs: Conv2DBackpropFilterAttrs,
  im2col?: Im2Col,
): TensorInfo {
  const kernel = (name: string) => getKernel(name, backendName);
  const run: Run = (name, ins, at = {}) =>
    kernel(name).kernelFunc({ inputs: ins as NamedTensorInfoMap, backend, attrs: at as NamedAttrMap }) as TensorInfo;
  const temps: TensorInfo[] = [];
  const keep = (t: TensorInfo): TensorInfo => (temps.push(t), t);
  const { x, dy } = inputs;
  const [batch, , , ci] = x.shape as [number, number, number, number];
  const info = convGradientInfo(x.shape, attrs.filterShape, attrs);
  const { filterHeight: kh, filterWidth: kw, outHeight: oh, outWidth: ow, strideHeight: sh, strideWidth: sw } = info;
  const co = info.outChannels;
  const { top, left } = info.padInfo;
  const identity =
    kh === 1 && kw === 1 && sh === 1 && sw === 1 && top + left === 0 && x.shape[1] === oh && x.shape[2] === ow;
  let cols: TensorInfo;
  if (identity) cols = x;
  else if (im2col) {
    // One dispatch: dispatches cost host time, which bounds a training step on a fast GPU.
    cols = keep(
      im2col(backend, x, {
        outHeight: oh,
        outWidth: ow,
        filterHeight: kh,
        filterWidth: kw,
        strides: [sh, sw],
        pads: [top, left],
      }),
    );
  } else {
    cols = im2colBySlices((name, ins, at) => keep(run(name, ins, at)), x, info); // every kernel output kept
  }
  const k = kh * kw * ci;
  const chunks = chunksFor(batch, oh * ow, k, co);
  const rows = (batch / chunks) * oh * ow;
  const a = keep(run('Reshape', { x: cols }, { shape: [chunks, rows, k] }));
  const b = keep(run('Reshape', { x: dy }, { shape: [chunks, rows, co] }));
  const partial = keep(run('BatchMatMul', { a, b }, { transposeA: true, transposeB: false }));
  const summed = chunks > 1 ? keep(run('Sum', { x: partial }, { axis: [0], keepDims: false })) : partial;
  const out = run('Reshape', { x: summed }, { shape: attrs.filterShape });
  for (const t of temps) backend.disposeData(t.dataId);
  return out;
}

/**
 * Replaces `backendName`'s Conv2DBackpropFilter with {@link conv2dFilterGradient}; returns a function
 * that puts the stock kernel back. Dilated or NCHW convolutions (unused by our networks) keep the
 * stock kernel.
 * @public
 */
export function registerFastFilterGradient(backendName: string, im2col?: Im2Col): () => void {
  const stock = getKernel(Conv2DBackpropFilter, backendName);
  if (!stock) return () => undefined;
  unregisterKernel(Conv2DBackpropFilter, backendName);
  const fast: KernelConfig = {
    kernelName: Conv2DBackpropFilter,
    backendName,
    kernelFunc: ({ inputs, backend, attrs }) => {
      const at = attrs as unknown as Conv2DBackpropFilterAttrs;
      if (at.dataFormat === 'NCHW') return stock.kernelFunc({ inputs, backend, attrs });
      return conv2dFilterGradient(
        backend as KernelBackend,
        backendName,
        inputs as unknown as { x: TensorInfo; dy: TensorInfo },
        at,
        im2col,
      );
    },
  };
  registerKernel(fast);
  return () => {
    unregisterKernel(Conv2DBackpropFilter, backendName);
    registerKernel(stock);
  };
}
