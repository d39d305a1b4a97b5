import type * as tf from '@tensorflow/tfjs-core';

/**
 * How data-parallel replicas of one network agree before each optimiser step. Every replica calls `allReduce`
 * with its own gradients (same order and shapes everywhere) and gets back their sum over all replicas, in the
 * same summation order everywhere, so the replicas' weights stay bit-for-bit equal. Batch-norm running
 * statistics are averaged in place: each replica normalised with its own shard's statistics (as PyTorch DDP does
 * without SyncBatchNorm), and the average of the replicas' momentum updates is the update by the mean shard
 * statistics.
 * @public
 */
export interface GradientExchange {
  readonly replicas: number;
  allReduce(grads: readonly tf.Tensor[], buffers: readonly tf.Variable[]): Promise<tf.Tensor[]>;
}
