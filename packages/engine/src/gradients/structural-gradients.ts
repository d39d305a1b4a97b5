import * as tf from '@tensorflow/tfjs-core';

type Grad = tf.GradConfig;
type Attrs = Record<string, unknown>;

type Lazy = () => tf.Tensor;

/** The two products of a matmul's gradient, each computed only when its input's gradient is asked for. */
function matMulGrad(dy: tf.Tensor, a: tf.Tensor, b: tf.Tensor, ta: boolean, tb: boolean): [Lazy, Lazy] {
  if (!ta && !tb) return [() => tf.matMul(dy, b, false, true), () => tf.matMul(a, dy, true, false)];
  if (!ta && tb) return [() => tf.matMul(dy, b, false, false), () => tf.matMul(dy, a, true, false)];
  if (ta && !tb) return [() => tf.matMul(b, dy, false, true), () => tf.matMul(a, dy, false, false)];
  return [() => tf.matMul(b, dy, true, true), () => tf.matMul(dy, a, true, true)];
}

/** Sum of dy over the repeats of a tiled x (covers broadcastTo). */
function tileGrad(dy: tf.Tensor, xShape: readonly number[], reps: readonly number[]): tf.Tensor {
  const split: number[] = [];
  xShape.forEach((s, i) => split.push(reps[i], s));
  const axes = xShape.map((_, i) => 2 * i).filter((_, i) => reps[i] > 1);
  return tf.reshape(tf.sum(tf.reshape(dy, split), axes), xShape as number[]);
}

/** Gradients of reshaping, reduction, matmul, softmax and convolution kernels. @public */
export const STRUCTURAL_GRADIENTS: readonly Grad[] = [
  {
    kernelName: 'Reshape',
    inputsToSave: ['x'],
    gradFunc: (dy, s) => ({ x: () => tf.reshape(dy as tf.Tensor, s[0].shape) }),
  },
  {
    kernelName: 'BatchMatMul',
    inputsToSave: ['a', 'b'],
    gradFunc: (dy, s, attrs) => {
      const { transposeA, transposeB } = attrs as Attrs as { transposeA: boolean; transposeB: boolean };
      const [a, b] = matMulGrad(dy as tf.Tensor, s[0], s[1], transposeA, transposeB);
      return { a, b };
    },
  },
  {
    kernelName: 'Conv2D',
    inputsToSave: ['x', 'filter'],
    gradFunc: (dy, s, attrs) => {
      const [x, filter] = s;
      const { strides, pad, dimRoundingMode } = attrs as tf.NamedAttrMap;
      const common: tf.NamedAttrMap = { strides, pad, dataFormat: 'NHWC', dimRoundingMode, dilations: 1 };
      return {
        x: () =>
          tf
            .engine()
            .runKernel(
              'Conv2DBackpropInput',
              { dy: dy as tf.Tensor, filter },
              { ...common, inputShape: x.shape },
            ) as tf.Tensor,
        filter: () =>
          tf
            .engine()
            .runKernel(
              'Conv2DBackpropFilter',
              { x, dy: dy as tf.Tensor },
              { ...common, filterShape: filter.shape },
            ) as tf.Tensor,
      };
    },
  },
  {
    kernelName: 'Concat',
    saveAllInputs: true,
    gradFunc: (dy, s, attrs) => {
      // tfjs passes the axis as given: a negative one counts from the end.
      const axis = tf.util.parseAxisParam((attrs as Attrs as { axis: number }).axis, s[0].shape)[0]!;
      // One split serves every input (the tape asks for the inputs one by one).
      let split: tf.Tensor[] | null = null;
      const parts = () =>
        (split ??= tf.split(
          dy as tf.Tensor,
          s.map((t) => t.shape[axis]),
          axis,
        ));
      return Object.fromEntries(s.map((_, i) => [String(i), () => parts()[i]]));
    },
  },
  {
    kernelName: 'Transpose',
    gradFunc: (dy, _s, attrs) => {
      const perm = (attrs as Attrs as { perm: number[] }).perm;
      const inverse = perm.map((_, i) => perm.indexOf(i));
      return { x: () => tf.transpose(dy as tf.Tensor, inverse) };
    },
  },
  {
    kernelName: 'SplitV',
    inputsToSave: ['x'],
    gradFunc: (dy, s, attrs) => {
      // The engine hands zeros for outputs nothing used, so every part has its dy.
      const axis = tf.util.parseAxisParam((attrs as Attrs as { axis: number }).axis, s[0].shape)[0]!;
      return { x: () => tf.concat(dy as unknown as tf.Tensor[], axis) };
    },
  },
  {
    kernelName: 'Softmax',
    outputsToSave: [true],
    gradFunc: (dy, s, attrs) => {
      const dim = (attrs as Attrs as { dim: number }).dim;
      return {
        logits: () => {
          const dyTimesY = tf.mul(dy as tf.Tensor, s[0]);
          return tf.sub(dyTimesY, tf.mul(tf.sum(dyTimesY, dim, true), s[0]));
        },
      };
    },
  },
  {
    kernelName: 'Tile',
    inputsToSave: ['x'],
    gradFunc: (dy, s, attrs) => ({
      x: () => tileGrad(dy as tf.Tensor, s[0].shape, (attrs as Attrs as { reps: number[] }).reps),
    }),
  },
  {
    kernelName: 'Mean',
    inputsToSave: ['x'],
    gradFunc: (dy, s, attrs) => ({
      x: () =>
        spreadReduction(dy as tf.Tensor, s[0].shape, (attrs as Attrs as { axis: number | number[] | null }).axis, true),
    }),
  },
  {
    kernelName: 'Sum',
    inputsToSave: ['x'],
    gradFunc: (dy, s, attrs) => ({
      x: () =>
        spreadReduction(
          dy as tf.Tensor,
          s[0].shape,
          (attrs as Attrs as { axis: number | number[] | null }).axis,
          false,
        ),
    }),
  },
];

/** dy of a sum/mean broadcast back over the reduced axes, as one broadcasting multiply. */
function spreadReduction(
  dy: tf.Tensor,
  xShape: readonly number[],
  axis: number | number[] | null,
  mean: boolean,
): tf.Tensor {
  const rank = xShape.length;
  // A null axis (tf.sum(x)) reduces every axis.
  const list = axis === null || axis === undefined ? xShape.map((_, i) => i) : Array.isArray(axis) ? axis : [axis];
  const axes = list.map((a) => (a < 0 ? a + rank : a));
  const kept = xShape.map((d, i) => (axes.includes(i) ? 1 : d));
  const spread = xShape.map((d, i) => (axes.includes(i) ? d : 1));
  const n = spread.reduce((p, d) => p * d, 1);
  return tf.mul(tf.reshape(dy, kept), tf.fill(spread, mean ? 1 / n : 1));
}
