import * as tf from '@tensorflow/tfjs-core';

/**
 * Batch-norm training forward as one kernel. Inputs `x` [..., C], `gamma` and `beta` [C], optionally
 * `runningMean` and `runningVar` [C]; attrs `eps`, `relu` (y = max(0, y)), `momentum` (with the running inputs).
 * Outputs [y, xhat, mean, variance, rstd]: y and xhat shaped like x, the biased batch statistics and
 * rstd = 1/sqrt(variance + eps) as [C]; with the running inputs also the new running mean and variance,
 * old·(1 − momentum) + batch·momentum with the variance unbiased by n/(n − 1) (torch's BatchNorm2d).
 * @public
 */
export const BATCH_NORM_TRAIN_KERNEL = 'MaouBatchNormTrain';

/**
 * Batch-norm backward as one kernel. Inputs `dy`, `xhat` [..., C], `rstd` and `gamma` [C], and `y` (the
 * forward's output) after a fused ReLU, where dy then counts only where y > 0.
 * Outputs [dx, dGamma, dBeta] with dx = γ·rstd·(dy − dβ/n − x̂·dγ/n), dβ = Σdy, dγ = Σdy·x̂.
 * @public
 */
export const BATCH_NORM_GRAD_KERNEL = 'MaouBatchNormGrad';

/**
 * One AdamW update of one parameter tensor (torch semantics). Inputs `param`, `grad`, `m`, `v`; attrs
 * `lr`, `beta1`, `beta2`, `eps`, `weightDecay` (0 where the parameter does not decay), `step` (from 1).
 * Outputs new [param, m, v] buffers.
 * @public
 */
export const ADAMW_KERNEL = 'MaouAdamW';

/**
 * torch's clip_grad_norm_ as one kernel. Inputs: the gradients, in order (any names); attr `maxNorm`.
 * Outputs each gradient scaled by min(1, maxNorm / (‖g‖₂ + 1e-6)), ‖g‖₂ over all of them.
 * @public
 */
export const CLIP_BY_GLOBAL_NORM_KERNEL = 'MaouClipByGlobalNorm';

/**
 * Exact (erf) GELU as one kernel. Input `x`; outputs [y, cdf]: y = x·Φ(x) and Φ(x), kept for the gradient.
 * @public
 */
export const GELU_KERNEL = 'MaouGelu';

/**
 * GELU's gradient as one kernel. Inputs `dy`, `x`, `cdf` (Φ(x) from GELU_KERNEL); output dx = dy·(Φ(x) + x·φ(x)).
 * @public
 */
export const GELU_GRAD_KERNEL = 'MaouGeluGrad';

/**
 * Layer norm over the last axis as one kernel. Inputs `x` [..., C], `gamma` and `beta` [C]; attr `eps`. Outputs
 * [y, xhat, rstd]: y = xhat·γ + β, xhat = (x − mean)·rstd, rstd = 1/sqrt(var + eps) shaped [..., 1].
 * @public
 */
export const LAYER_NORM_KERNEL = 'MaouLayerNorm';

/**
 * Layer norm's backward as one kernel. Inputs `dy`, `xhat`, `rstd` (from LAYER_NORM_KERNEL) and `gamma`. Outputs
 * [dx, dGamma, dBeta]: dx = rstd·(g − mean(g) − xhat·mean(g·xhat)) with g = dy·γ, dγ = Σ dy·xhat, dβ = Σ dy.
 * @public
 */
export const LAYER_NORM_GRAD_KERNEL = 'MaouLayerNormGrad';

/**
 * A dropout keep-mask as one kernel, drawn where the tensor lives. No inputs; attrs `shape`, `key`, `threshold`,
 * `scale` (from `dropoutKeep`). Output float32 [shape]: element i is `scale` where lowbias32(i ^ key) ≥ `threshold`
 * (unsigned 32-bit), else 0. The same integers on every backend, so the engine's host mask is this mask. Registered
 * by webgpu (WGSL) and the fast wasm set (SIMD).
 * @public
 */
export const DROPOUT_MASK_KERNEL = 'MaouDropoutMask';

/**
 * Whether the active backend has a kernel of this name: the fused kernels exist only where an adapter
 * registered them (the fast wasm set; all but batch norm also on webgpu); elsewhere callers compose the
 * same result from stock ops, or draw the dropout mask on the host.
 * @public
 */
export function hasKernel(name: string): boolean {
  return tf.getKernel(name, tf.getBackend()) !== undefined;
}
