import * as tf from '@tensorflow/tfjs-core';
import { softTargetCrossEntropySum } from './soft-target-kl';

/** Ratios of maou's Stage 3 loss. @public */
export interface Stage3LossWeights {
  readonly policy: number;
  readonly value: number;
}

/**
 * maou's Stage 3 loss: KLDivLoss(batchmean)(log_softmax(policy), normalised move labels) · w_p
 * + BCEWithLogits(value, result) · w_v. `negEntropySum` is Σ t·log t of the normalised targets.
 * @public
 */
export function stage3Loss(
  policyLogits: tf.Tensor2D,
  valueLogit: tf.Tensor2D,
  policyTarget: tf.Tensor2D,
  resultValue: tf.Tensor2D,
  negEntropySum: number,
  weights: Stage3LossWeights,
): tf.Scalar {
  const batch = policyLogits.shape[0];
  const ce = softTargetCrossEntropySum(policyLogits, policyTarget) as tf.Scalar;
  const policy = tf.div(tf.add(ce, negEntropySum), batch);
  const value = bceWithLogits(valueLogit, resultValue, 1);
  return tf.add(tf.mul(policy, weights.policy), tf.mul(value, weights.value));
}

/**
 * Mean of −[w·t·log σ(z) + (1−t)·log(1−σ(z))] = w·t·softplus(−z) + (1−t)·softplus(z), torch's
 * BCEWithLogitsLoss with pos_weight w.
 * @public
 */
export function bceWithLogits(z: tf.Tensor, t: tf.Tensor, posWeight: number): tf.Scalar {
  if (posWeight === 1) return tf.mean(tf.sub(tf.softplus(z), tf.mul(z, t)));
  const pos = tf.mul(tf.mul(t, posWeight), tf.softplus(tf.neg(z)));
  const neg = tf.mul(tf.sub(1, t), tf.softplus(z));
  return tf.mean(tf.add(pos, neg));
}
