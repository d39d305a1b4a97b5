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

/** AdamW hyper-parameters of one update (torch semantics; `step` counts from 1). @public */
export interface AdamWStep {
  readonly lr: number;
  readonly beta1: number;
  readonly beta2: number;
  readonly eps: number;
  /** 0 for parameters that do not decay. */
  readonly weightDecay: number;
  readonly step: number;
}

/** MaouAdamW's inputs param, grad, m, v (one size) and its attrs lr, beta1, beta2, eps, weightDecay, step. @public */
export function adamWInputs(a: KernelArgs): { param: Info; grad: Info; m: Info; v: Info; settings: AdamWStep } {
  const [param, grad, m, v] = floatInputs('MaouAdamW', a, ['param', 'grad', 'm', 'v']);
  for (const [name, t] of Object.entries({ grad, m, v })) {
    if (sizeOf(t) !== sizeOf(param))
      throw new Error(`MaouAdamW: ${name} has ${sizeOf(t)} values, param has ${sizeOf(param)}`);
  }
  const at = a.attrs ?? {};
  const settings = {
    lr: Number(at.lr),
    beta1: Number(at.beta1),
    beta2: Number(at.beta2),
    eps: Number(at.eps),
    weightDecay: Number(at.weightDecay ?? 0),
    step: Number(at.step),
  };
  const bad = Object.entries(settings).find(([, value]) => !Number.isFinite(value));
  if (bad) throw new Error(`MaouAdamW: attr ${bad[0]} is ${String(at[bad[0]])}, a finite number expected`);
  if (!(settings.step >= 1)) throw new Error(`MaouAdamW: attr step is ${settings.step}, counted from 1`);
  return { param, grad, m, v, settings };
}

/** MaouClipByGlobalNorm's gradients (every input, in order) and its attr maxNorm (> 0). @public */
export function clipInputs(a: KernelArgs): { grads: Info[]; maxNorm: number } {
  const kernel = 'MaouClipByGlobalNorm';
  const grads = floatInputs(kernel, a, Object.keys(a.inputs));
  const maxNorm = Number((a.attrs ?? {}).maxNorm);
  if (!(maxNorm > 0))
    throw new Error(`${kernel}: attr maxNorm is ${String((a.attrs ?? {}).maxNorm)}, a number > 0 expected`);
  return { grads, maxNorm };
}

/** DROPOUT_MASK_KERNEL's attrs (the engine's `dropoutKeep`): a shape of whole sizes, two u32 and a finite scale. */
export function dropoutMaskInputs(a: KernelArgs): { shape: number[]; key: number; threshold: number; scale: number } {
  const at = (a.attrs ?? {}) as Record<string, unknown>;
  const shape = at.shape;
  if (!Array.isArray(shape) || !shape.every((d) => Number.isInteger(d) && d >= 0))
    throw new Error(`MaouDropoutMask: attr shape is ${JSON.stringify(shape)}, whole sizes expected`);
  const u32 = (name: string): number => {
    const v = at[name];
    if (!(typeof v === 'number' && Number.isInteger(v) && v >= 0 && v < 2 ** 32))
      throw new Error(`MaouDropoutMask: attr ${name} is ${String(v)}, an unsigned 32-bit integer expected`);
    return v;
  };
  const scale = at.scale;
  if (!(typeof scale === 'number' && Number.isFinite(scale) && scale >= 1))
    throw new Error(`MaouDropoutMask: attr scale is ${String(scale)}, a finite number ≥ 1 expected`);
  return { shape: shape as number[], key: u32('key'), threshold: u32('threshold'), scale };
}
