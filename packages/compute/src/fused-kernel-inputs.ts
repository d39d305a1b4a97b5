import type * as tf from '@tensorflow/tfjs-core';

// Input checks of the engine's fused kernels (nn/fused-kernels.ts), shared by every backend that registers them,
// so each refuses the same inputs with the same message.

type Info = tf.TensorInfo;
type KernelArgs = Parameters<tf.KernelFunc>[0];

/** Number of elements of a tensor. @public */
export const sizeOf = (t: Info): number => t.shape.reduce((a, b) => a * b, 1);

/** The named inputs, all float32 (these kernels have no other dtype and no fallback: a mismatch is a bug). @public */
export function floatInputs(kernel: string, a: KernelArgs, names: string[]): Info[] {
  return names.map((n) => {
    const t = a.inputs[n];
    if (!t) throw new Error(`${kernel}: input ${n} is missing`);
    if (t.dtype !== 'float32') throw new Error(`${kernel}: input ${n} is ${t.dtype}, float32 expected`);
    return t;
  });
}

/** The last axis of `rowsInput`, checked against each per-channel input's size. @public */
export function channelsOf(kernel: string, rowsInput: Info, perChannel: Record<string, Info>): number {
  const c = rowsInput.shape[rowsInput.shape.length - 1] ?? 0;
  for (const [name, t] of Object.entries(perChannel)) {
    if (sizeOf(t) !== c)
      throw new Error(`${kernel}: ${name} has ${sizeOf(t)} values, the ${c} channels of the input expected`);
  }
  return c;
}

/** MaouGeluGrad's inputs dy, x and cdf, all of one shape. @public */
export function geluGradInputs(a: KernelArgs): { dy: Info; x: Info; cdf: Info } {
  const kernel = 'MaouGeluGrad';
  const [dy, x, cdf] = floatInputs(kernel, a, ['dy', 'x', 'cdf']);
  for (const [name, t] of Object.entries({ dy, cdf })) {
    if (t.shape.join() !== x.shape.join()) throw new Error(`${kernel}: ${name} [${t.shape}] and x [${x.shape}] differ`);
  }
  return { dy, x, cdf };
}

/** MaouLayerNorm's inputs x [..., C], gamma and beta [C], and its attr eps (> 0). @public */
export function layerNormInputs(a: KernelArgs): { x: Info; gamma: Info; beta: Info; eps: number } {
  const kernel = 'MaouLayerNorm';
  const [x, gamma, beta] = floatInputs(kernel, a, ['x', 'gamma', 'beta']);
  channelsOf(kernel, x, { gamma, beta });
  const eps = Number((a.attrs ?? {}).eps);
  if (!(eps > 0)) throw new Error(`${kernel}: attr eps is ${String((a.attrs ?? {}).eps)}, a number > 0 expected`);
  return { x, gamma, beta, eps };
}

/** MaouLayerNormGrad's inputs dy and xhat (one shape), rstd (one value per row) and gamma [C]. @public */
export function layerNormGradInputs(a: KernelArgs): { dy: Info; xhat: Info; rstd: Info; gamma: Info } {
  const kernel = 'MaouLayerNormGrad';
  const [dy, xhat, rstd, gamma] = floatInputs(kernel, a, ['dy', 'xhat', 'rstd', 'gamma']);
  if (dy.shape.join() !== xhat.shape.join())
    throw new Error(`${kernel}: dy [${dy.shape}] and xhat [${xhat.shape}] differ`);
  channelsOf(kernel, dy, { gamma });
  const rows = sizeOf(dy) / (dy.shape[dy.shape.length - 1] ?? 1);
  if (sizeOf(rstd) !== rows)
    throw new Error(`${kernel}: rstd has ${sizeOf(rstd)} values, one per row (${rows}) expected`);
  return { dy, xhat, rstd, gamma };
}
