import type * as tf from '@tensorflow/tfjs-core';
import { type ConvGradientAttrs, convGradientInfo, im2colBySlices } from '../../../conv-im2col';
import { type KernelScratch } from './kernel-scratch';

type Info = tf.TensorInfo;

function convInfo(xShape: number[], filterShape: number[], attrs: tf.NamedAttrMap): tf.backend_util.Conv2DInfo {
  return convGradientInfo(xShape, filterShape, attrs as unknown as ConvGradientAttrs);
}

/**
 * x [B,H,W,C] → patches [B,Ho,Wo,C·kh·kw], channel-major (index c·kh·kw + tap), made by one depthwise
 * convolution with a one-hot filter per tap, with the conv's own stride and padding: tfjs-wasm's strided
 * slices take ~50 ms per tap at batch 256, the XNNPACK depthwise conv ~9 ms for all nine.
 */
function im2col(s: KernelScratch, x: Info, c: tf.backend_util.Conv2DInfo, attrs: tf.NamedAttrMap): Info {
  const { filterHeight: kh, filterWidth: kw, strideHeight: sh, strideWidth: sw, inChannels: ch } = c;
  if (kh === 1 && kw === 1 && sh === 1 && sw === 1 && c.padInfo.top + c.padInfo.left === 0) return x;
  const filter = tapFilter(s, kh, kw, ch);
  return s.run(
    'DepthwiseConv2dNative',
    { x, filter },
    {
      strides: attrs.strides,
      pad: attrs.pad,
      dimRoundingMode: attrs.dimRoundingMode,
      dataFormat: 'NHWC',
      dilations: 1,
    },
  );
}

/**
 * One-hot depthwise filters [kh,kw,C,kh·kw], made once per shape and backend instance and kept (XNNPACK then reuses
 * its packing); a data id means nothing to another backend instance.
 */
const tapFiltersByBackend = new WeakMap<object, Map<string, Info>>();
function tapFilter(s: KernelScratch, kh: number, kw: number, ch: number): Info {
  const key = `${kh}x${kw}x${ch}`;
  let tapFilters = tapFiltersByBackend.get(s.backend);
  if (!tapFilters) {
    tapFilters = new Map();
    tapFiltersByBackend.set(s.backend, tapFilters);
  }
  let f = tapFilters.get(key);
  if (!f) {
    const taps = kh * kw;
    const values = new Float32Array(kh * kw * ch * taps);
    for (let i = 0; i < kh; i++)
      for (let j = 0; j < kw; j++) for (let c = 0; c < ch; c++) values[((i * kw + j) * ch + c) * taps + i * kw + j] = 1;
    const shape = [kh, kw, ch, taps];
    f = { dataId: s.backend.write(values, shape, 'float32'), shape, dtype: 'float32' };
    tapFilters.set(key, f);
  }
  return f;
}

/**
 * dW = im2col(x)ᵀ · dy, with the explicit transpose on the smaller side so the product runs on the
 * untransposed (fast) matmul. `fast: false` is the minimal shim (sliced im2col, transposed matmul), kept
 * to measure stock tfjs-wasm, which has no Conv2DBackpropFilter at all.
 * @public
 */
export function conv2dBackpropFilter(s: KernelScratch, x: Info, dy: Info, attrs: tf.NamedAttrMap, fast: boolean): Info {
  const filterShape = attrs.filterShape as number[];
  const c = convInfo(x.shape, filterShape, attrs);
  const n = c.batchSize * c.outHeight * c.outWidth;
  const taps = c.filterHeight * c.filterWidth;
  const k = taps * c.inChannels;
  const co = c.outChannels;
  const dy3 = s.reshape(dy, [1, n, co]);
  if (!fast) {
    // The minimal shim's im2col (what stock tfjs-wasm needs at the least to train), the baseline of `bench:engine`.
    const plain = s.reshape(
      im2colBySlices((name, inputs, at) => s.run(name, inputs, at), x, c),
      [1, n, k],
    );
    return s.reshape(s.run('BatchMatMul', { a: plain, b: dy3 }, { transposeA: true, transposeB: false }), filterShape);
  }
  const cols = s.reshape(im2col(s, x, c, attrs), [1, n, k]);
  let dw: Info; // [1, k, co], rows in the channel-major order of the patches
  if (k <= co) dw = s.matMul(s.transpose(cols, [0, 2, 1]), dy3);
  else dw = s.transpose(s.matMul(s.transpose(dy3, [0, 2, 1]), cols), [0, 2, 1]);
  if (taps === 1) return s.reshape(dw, filterShape);
  // (c, i, j) rows → HWIO (i, j, c): a transpose of the small result.
  const chw = s.reshape(dw, [c.inChannels, c.filterHeight, c.filterWidth, co]);
  return s.transpose(chw, [1, 2, 0, 3]);
}

/** Spreads [B,Ho,Wo,C] onto a stride grid: [B,Ho·sh,Wo·sw,C] with zeros between, cut to h×w. */
function dilate(s: KernelScratch, t: Info, sh: number, sw: number, h: number, w: number): Info {
  const [b, ho, wo, ch] = t.shape;
  if (sh === 1 && sw === 1) return t;
  const six = s.reshape(t, [b, ho, 1, wo, 1, ch]);
  const spread = s.run(
    'PadV2',
    { x: six },
    {
      paddings: [
        [0, 0],
        [0, 0],
        [0, sh - 1],
        [0, 0],
        [0, sw - 1],
        [0, 0],
      ],
      constantValue: 0,
    },
  );
  const grid = s.reshape(spread, [b, ho * sh, wo * sw, ch]);
  return s.run('Slice', { x: grid }, { begin: [0, 0, 0, 0], size: [b, h, w, ch] });
}

/**
 * dx as a forward convolution (XNNPACK) of the stride-dilated dy with the flipped, in/out-swapped filter;
 * 1×1 filters as one untransposed matmul. Returns null for shapes it does not cover (stock kernel then).
 * @public
 */
export function conv2dBackpropInput(s: KernelScratch, dy: Info, filter: Info, attrs: tf.NamedAttrMap): Info | null {
  const inputShape = attrs.inputShape as number[];
  const c = convInfo(inputShape, filter.shape, attrs);
  const { filterHeight: kh, filterWidth: kw, strideHeight: sh, strideWidth: sw, inChannels: ci, outChannels: co } = c;
  const [b, h, w] = inputShape;
  if (kh === 1 && kw === 1 && c.padInfo.top + c.padInfo.left === 0) {
    const wT = s.transpose(s.reshape(filter, [1, ci, co]), [0, 2, 1]);
    const n = b * c.outHeight * c.outWidth;
    const dxs = s.reshape(s.matMul(s.reshape(dy, [1, n, co]), wT), [b, c.outHeight, c.outWidth, ci]);
    return dilate(s, dxs, sh, sw, h, w);
  }
  const hd = (c.outHeight - 1) * sh + 1;
  const wd = (c.outWidth - 1) * sw + 1;
  const top = kh - 1 - c.padInfo.top;
  const left = kw - 1 - c.padInfo.left;
  const bottom = h - hd + kh - 1 - top;
  const right = w - wd + kw - 1 - left;
  if (Math.min(top, left, bottom, right) < 0) return null;
  const spread = dilate(s, dy, sh, sw, hd, wd);
  const padded = s.run(
    'PadV2',
    { x: spread },
    {
      paddings: [
        [0, 0],
        [top, bottom],
        [left, right],
        [0, 0],
      ],
      constantValue: 0,
    },
  );
  const flipped = s.transpose(s.run('Reverse', { x: filter }, { dims: [0, 1] }), [0, 1, 3, 2]);
  return s.run(
    'Conv2D',
    { x: padded, filter: flipped },
    { strides: 1, pad: 'valid', dataFormat: 'NHWC', dilations: 1 },
  );
}
