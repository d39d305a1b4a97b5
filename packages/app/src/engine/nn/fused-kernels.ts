import * as tf from '@tensorflow/tfjs-core';

/**
 * Batch-norm training forward as one kernel. Inputs `x` [..., C], `gamma` and `beta` [C]; attr `eps`.
 * Outputs [y, xhat, mean, variance, rstd]: y and xhat shaped like x, the biased batch statistics and
 * rstd = 1/sqrt(variance + eps) as [C].
 * @public
 */
export const BATCH_NORM_TRAIN_KERNEL = 'MaouBatchNormTrain';

/**
 * Batch-norm backward as one kernel. Inputs `dy`, `xhat` [..., C], `rstd` and `gamma` [C].
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
 * Whether the active backend has a kernel of this name: the fused kernels exist only where an adapter
 * registered them (the fast wasm set); elsewhere callers compose the same result from stock ops.
 * @public
 */
export function hasKernel(name: string): boolean {
  return tf.getKernel(name, tf.getBackend()) !== undefined;
}
