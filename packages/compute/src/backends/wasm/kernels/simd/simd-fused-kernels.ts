import type * as tf from '@tensorflow/tfjs-core';
import { simdFusedModuleFor } from './simd-fused-module';
import { type WasmBackendHeap } from './wasm-heap';
import {
  adamWInputs,
  channelsOf,
  clipInputs,
  dropoutMaskInputs,
  floatInputs,
  geluGradInputs,
  layerNormGradInputs,
  layerNormInputs,
} from '../../../../fused-kernel-inputs';

type Info = tf.TensorInfo;
type KernelArgs = Parameters<tf.KernelFunc>[0];

const heapOf = (a: KernelArgs) => a.backend as unknown as WasmBackendHeap;

/**
 * MaouBatchNormTrain on the SIMD kernels: inputs x, gamma, beta and optionally runningMean, runningVar;
 * attrs eps, relu, momentum (with the running inputs); outputs y, xhat, mean, variance, rstd, then the new
 * running mean and variance where those were given.
 * @public
 */
export function simdBatchNormTrain(a: KernelArgs): Info[] {
  const kernel = 'MaouBatchNormTrain';
  const [x, gamma, beta] = floatInputs(kernel, a, ['x', 'gamma', 'beta']);
  const at = a.attrs ?? {};
  const withRunning = a.inputs.runningMean !== undefined || a.inputs.runningVar !== undefined;
  const [mean, variance] = withRunning ? floatInputs(kernel, a, ['runningMean', 'runningVar']) : [];
  channelsOf(kernel, x, withRunning ? { gamma, beta, runningMean: mean, runningVar: variance } : { gamma, beta });
  const eps = Number(at.eps);
  if (!(eps >= 0)) throw new Error(`${kernel}: attr eps is ${String(at.eps)}, a number >= 0 expected`);
  const momentum = Number(at.momentum);
  if (withRunning && !(momentum >= 0 && momentum <= 1))
    throw new Error(`${kernel}: attr momentum is ${String(at.momentum)}, a number in [0, 1] expected`);
  const running = withRunning ? { mean, variance, momentum } : null;
  return simdFusedModuleFor(heapOf(a)).batchNormTrain(x, gamma, beta, eps, { relu: at.relu === true, running });
}

/** MaouBatchNormGrad on the SIMD kernels: inputs dy, xhat, rstd, gamma and optionally y (after a fused ReLU); outputs dx, dGamma, dBeta. @public */
export function simdBatchNormGrad(a: KernelArgs): Info[] {
  const kernel = 'MaouBatchNormGrad';
  const [dy, xhat, rstd, gamma] = floatInputs(kernel, a, ['dy', 'xhat', 'rstd', 'gamma']);
  if (dy.shape.join() !== xhat.shape.join())
    throw new Error(`${kernel}: dy [${dy.shape}] and xhat [${xhat.shape}] differ`);
  const [y] = a.inputs.y ? floatInputs(kernel, a, ['y']) : [null];
  if (y && y.shape.join() !== dy.shape.join()) throw new Error(`${kernel}: y [${y.shape}] and dy [${dy.shape}] differ`);
  channelsOf(kernel, dy, { rstd, gamma });
  return simdFusedModuleFor(heapOf(a)).batchNormGrad(dy, xhat, rstd, gamma, y);
}

/** MaouClipByGlobalNorm on the SIMD kernels: inputs the gradients (any names, in order); attr maxNorm; outputs them clipped. @public */
export function simdClipByGlobalNorm(a: KernelArgs): Info[] {
  const { grads, maxNorm } = clipInputs(a);
  return simdFusedModuleFor(heapOf(a)).clipByGlobalNorm(grads, maxNorm);
}

/** MaouAdamW on the SIMD kernels: inputs param, grad, m, v; attrs lr, beta1, beta2, eps, weightDecay, step. @public */
export function simdAdamW(a: KernelArgs): Info[] {
  const { param, grad, m, v, settings } = adamWInputs(a);
  return simdFusedModuleFor(heapOf(a)).adamW(param, grad, m, v, settings);
}

/** MaouGelu on the SIMD kernels: input x; outputs y = x·Φ(x) and Φ(x). @public */
export function simdGelu(a: KernelArgs): Info[] {
  const [x] = floatInputs('MaouGelu', a, ['x']);
  return simdFusedModuleFor(heapOf(a)).gelu(x);
}

/** MaouGeluGrad on the SIMD kernels: inputs dy, x and cdf (Φ(x) from MaouGelu), all of one shape; output dx. @public */
export function simdGeluGrad(a: KernelArgs): Info {
  const { dy, x, cdf } = geluGradInputs(a);
  return simdFusedModuleFor(heapOf(a)).geluGrad(dy, x, cdf);
}

/** MaouLayerNorm on the SIMD kernels: inputs x [..., C], gamma and beta [C]; attr eps; outputs y, xhat, rstd [..., 1]. @public */
export function simdLayerNorm(a: KernelArgs): Info[] {
  const { x, gamma, beta, eps } = layerNormInputs(a);
  return simdFusedModuleFor(heapOf(a)).layerNorm(x, gamma, beta, eps);
}

/** MaouLayerNormGrad on the SIMD kernels: inputs dy, xhat (one shape), rstd [..., 1], gamma [C]; outputs dx, dGamma, dBeta. @public */
export function simdLayerNormGrad(a: KernelArgs): Info[] {
  const { dy, xhat, rstd, gamma } = layerNormGradInputs(a);
  return simdFusedModuleFor(heapOf(a)).layerNormGrad(dy, xhat, rstd, gamma);
}

/** MaouDropoutMask on the SIMD kernels: no inputs; attrs shape, key, threshold, scale; output the keep-mask. @public */
export function simdDropoutMask(a: KernelArgs): Info {
  const { shape, key, threshold, scale } = dropoutMaskInputs(a);
  return simdFusedModuleFor(heapOf(a)).dropoutMask(shape, key, threshold, scale);
}
