import * as tf from '@tensorflow/tfjs-core';
import { simdConvModuleFor } from './simd-conv-module';
import { type WasmBackendHeap } from './wasm-heap';

type Info = tf.TensorInfo;
type KernelArgs = Parameters<tf.KernelFunc>[0];
type Shape4 = [number, number, number, number];

/** Which pass of a convolution. @public */
export type ConvPass = 'forward' | 'input-gradient' | 'filter-gradient';

/**
 * Whether the kernels cover this convolution: NHWC, no dilation, float32 and the channel multiples the
 * 4×8 tiles need (output channels in 8-wide panels; the input gradient's panels must not straddle two taps;
 * the filter gradient tiles 4 input channels by 8 output channels).
 * @public
 */
export function simdConvSupports(pass: ConvPass, c: tf.backend_util.Conv2DInfo): boolean {
  if (c.dataFormat !== 'channelsLast' || c.dilationHeight !== 1 || c.dilationWidth !== 1) return false;
  if (c.batchSize * c.outHeight * c.outWidth * c.inChannels * c.outChannels === 0) return false;
  if (pass === 'forward') return c.outChannels % 8 === 0;
  if (pass === 'input-gradient') return c.inChannels % 8 === 0;
  return c.inChannels % 4 === 0 && c.outChannels % 8 === 0;
}

/**
 * Whether the tiles cover C [M,N] = op(A)·op(B): anything but both operands transposed (the kernels pad N to
 * 8-wide panels and, with A transposed, M to 4-row tiles). Small products gain most: XNNPACK takes ~0.25 ms for
 * a [1,256]·[256,48] (it packs B and sets up an operator on every call).
 * @public
 */
export function simdMatMulSupports(m: number, k: number, n: number, transposeA: boolean, transposeB: boolean): boolean {
  return !(transposeA && transposeB) && m * k * n > 0;
}

/** The convolution's geometry if the SIMD kernels cover it (and the tensors agree with it), else null. */
function coveredInfo(
  pass: ConvPass,
  xShape: number[],
  filterShape: number[],
  dyShape: number[] | null,
  tensors: Info[],
  attrs: tf.NamedAttrMap,
): tf.backend_util.Conv2DInfo | null {
  const { strides, pad, dilations, dimRoundingMode, dataFormat } = attrs as unknown as {
    strides: number | [number, number];
    pad: 'same' | 'valid' | number;
    dilations?: number | [number, number];
    dimRoundingMode?: 'floor' | 'round' | 'ceil';
    dataFormat?: 'NHWC' | 'NCHW';
  };
  if (
    (dataFormat ?? 'NHWC') !== 'NHWC' ||
    xShape.length !== 4 ||
    filterShape.length !== 4 ||
    filterShape[2] !== xShape[3]
  )
    return null;
  if (tensors.some((t) => t.dtype !== 'float32')) return null;
  const c = tf.backend_util.computeConv2DInfo(
    xShape as Shape4,
    filterShape as Shape4,
    strides,
    dilations ?? 1,
    pad,
    dimRoundingMode,
  );
  if (dyShape && dyShape.join() !== [c.batchSize, c.outHeight, c.outWidth, c.outChannels].join()) return null;
  return simdConvSupports(pass, c) ? c : null;
}

const heapOf = (a: KernelArgs) => a.backend as unknown as WasmBackendHeap;

/** Conv2D on the SIMD kernels, or null where they do not cover it. @public */
export function simdConv2d(a: KernelArgs): Info | null {
  const { x, filter } = a.inputs as { x: Info; filter: Info };
  const c = coveredInfo('forward', x.shape, filter.shape, null, [x, filter], a.attrs ?? {});
  return c && simdConvModuleFor(heapOf(a)).conv2d(x, filter, c);
}

/** Conv2DBackpropInput on the SIMD kernels, or null where they do not cover it. @public */
export function simdConv2dBackpropInput(a: KernelArgs): Info | null {
  const { dy, filter } = a.inputs as { dy: Info; filter: Info };
  const inputShape = (a.attrs ?? {}).inputShape as number[];
  const c = coveredInfo('input-gradient', inputShape, filter.shape, dy.shape, [dy, filter], a.attrs ?? {});
  return c && simdConvModuleFor(heapOf(a)).conv2dBackpropInput(dy, filter, c);
}

/** Conv2DBackpropFilter on the SIMD kernels, or null where they do not cover it. @public */
export function simdConv2dBackpropFilter(a: KernelArgs): Info | null {
  const { x, dy } = a.inputs as { x: Info; dy: Info };
  const filterShape = (a.attrs ?? {}).filterShape as number[];
  const c = coveredInfo('filter-gradient', x.shape, filterShape, dy.shape, [x, dy], a.attrs ?? {});
  return c && simdConvModuleFor(heapOf(a)).conv2dBackpropFilter(x, dy, c);
}

const product = (dims: number[]) => dims.reduce((x, y) => x * y, 1);

/**
 * BatchMatMul of float32 operands of any rank ≥ 2 on the SIMD kernels, or null: the leading (batch) dims must
 * be equal, or one side's all 1 (broadcast), as attention's [batch·heads, T, d] products and 2-D layers are.
 * @public
 */
export function simdBatchMatMul(args: KernelArgs): Info | null {
  const { a, b } = args.inputs as { a: Info; b: Info };
  const { transposeA = false, transposeB = false } = (args.attrs ?? {}) as {
    transposeA?: boolean;
    transposeB?: boolean;
  };
  if (a.shape.length < 2 || b.shape.length < 2 || a.dtype !== 'float32' || b.dtype !== 'float32') return null;
  const [outerA, outerB] = [a.shape.slice(0, -2), b.shape.slice(0, -2)];
  const [batchA, batchB] = [product(outerA), product(outerB)];
  const same = outerA.length === outerB.length && outerA.every((d, i) => d === outerB[i]);
  if (!same && batchA !== 1 && batchB !== 1) return null;
  // The broadcast shape is the longer side's dims where the other side is all 1 and no longer.
  const [outer, other] = batchA >= batchB ? [outerA, outerB] : [outerB, outerA];
  if (outer.length < other.length) return null;
  const [ar, ac] = a.shape.slice(-2);
  const [br, bc] = b.shape.slice(-2);
  const [m, k] = transposeA ? [ac, ar] : [ar, ac];
  const [k2, n] = transposeB ? [bc, br] : [br, bc];
  if (k !== k2 || !simdMatMulSupports(m, k, n, transposeA, transposeB)) return null;
  const plan = {
    batch: Math.max(batchA, batchB),
    aStep: batchA === 1 ? 0 : m * k,
    bStep: batchB === 1 ? 0 : k * n,
    m,
    k,
    n,
    transposeA,
    transposeB,
  };
  return simdConvModuleFor(heapOf(args)).matMul(a, b, [...outer, m, n], plan);
}
