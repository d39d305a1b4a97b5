import * as tf from '@tensorflow/tfjs-core';

type Info = tf.TensorInfo;
type Shape4 = [number, number, number, number];

/** Runs one kernel of the active backend; the caller owns (and frees) what it returns. @public */
export type KernelRun = (name: string, inputs: tf.NamedTensorInfoMap, attrs: tf.NamedAttrMap) => Info;

/** The attrs of a convolution gradient kernel that fix its geometry (NHWC, no dilation). @public */
export interface ConvGradientAttrs {
  readonly strides: number | [number, number];
  readonly pad: 'same' | 'valid' | number | tf.backend_util.ExplicitPadding;
  readonly dimRoundingMode?: 'floor' | 'round' | 'ceil';
}

/** A convolution gradient's geometry from its kernel's shapes and attrs (both gradient kernels, every backend). @public */
export function convGradientInfo(
  xShape: readonly number[],
  filterShape: readonly number[],
  attrs: ConvGradientAttrs,
): tf.backend_util.Conv2DInfo {
  return tf.backend_util.computeConv2DInfo(
    [...xShape] as Shape4,
    [...filterShape] as Shape4,
    attrs.strides,
    1,
    attrs.pad,
    attrs.dimRoundingMode,
  );
}

/**
 * im2col from stock kernels every backend has: the padding, one strided slice per tap, concatenated on channels.
 * Patches [B,Ho,Wo,kh·kw·C] in (i, j, c) order, the HWIO filter's row order, so dW = patchesᵀ·dy needs no reorder.
 * @public
 */
export function im2colBySlices(run: KernelRun, x: Info, c: tf.backend_util.Conv2DInfo): Info {
  const { top, bottom, left, right } = c.padInfo;
  const { filterHeight: kh, filterWidth: kw, strideHeight: sh, strideWidth: sw, outHeight: ho, outWidth: wo } = c;
  const padding = [
    [0, 0],
    [top, bottom],
    [left, right],
    [0, 0],
  ];
  const padded = top + bottom + left + right > 0 ? run('PadV2', { x }, { paddings: padding, constantValue: 0 }) : x;
  const cols: Info[] = [];
  for (let i = 0; i < kh; i++) {
    for (let j = 0; j < kw; j++) {
      const end = [c.batchSize, i + (ho - 1) * sh + 1, j + (wo - 1) * sw + 1, c.inChannels];
      const slice = { begin: [0, i, j, 0], end, strides: [1, sh, sw, 1] };
      const masks = { beginMask: 0, endMask: 0, ellipsisMask: 0, newAxisMask: 0, shrinkAxisMask: 0 };
      cols.push(run('StridedSlice', { x: padded }, { ...slice, ...masks }));
    }
  }
  return cols.length === 1 ? cols[0]! : run('Concat', cols as unknown as tf.NamedTensorInfoMap, { axis: 3 });
}
