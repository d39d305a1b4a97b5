import type * as tf from '@tensorflow/tfjs-core';

/**
 * How data-parallel replicas of one network agree before each optimiser step. Every replica calls `allReduce`
 * with its own gradients (same order and shapes everywhere) and gets back their sum over all replicas, in the
 * same summation order everywhere, so the replicas' weights stay bit-for-bit equal. Batch-norm running
 * statistics are averaged in place: each replica normalised with its own shard's statistics (as PyTorch DDP does
 * without SyncBatchNorm), and the average of the replicas' momentum updates is the update by the mean shard
 * statistics. `rows` is how many rows this replica trained on since the last update: a replica that saw none
 * (an empty shard) has stale statistics and does not count in the average.
 * @public
 */
export interface GradientExchange {
  readonly replicas: number;
  allReduce(grads: readonly tf.Tensor[], buffers: readonly tf.Variable[], rows: number): Promise<tf.Tensor[]>;
}
