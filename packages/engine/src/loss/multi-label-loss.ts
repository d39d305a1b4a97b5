import * as tf from '@tensorflow/tfjs-core';
import { bceWithLogits } from './stage3-loss';

/** Stage 2 loss settings: asymmetric loss when any of the gammas or clip is positive. @public */
export interface MultiLabelLossOptions {
  readonly posWeight: number;
  readonly gammaPos: number;
  readonly gammaNeg: number;
  readonly clip: number;
}

/**
 * Stage 1 (BCE with pos_weight) and Stage 2 (BCE, or the asymmetric loss of maou's LegalMovesLoss):
 * p = σ(z); L+ = t·(1−p)^γ+·log σ(z); L− = (1−t)·(1−q)^γ−·log q with q = min(σ(−z)+clip, 1) when
 * clip > 0, else (1−t)·p^γ−·log σ(−z); loss = −mean(L+ + L−). pos_weight is ignored under ASL, as in maou.
 * @public
 */
export function multiLabelLoss(z: tf.Tensor2D, t: tf.Tensor2D, o: MultiLabelLossOptions): tf.Scalar {
  const asymmetric = o.gammaPos > 0 || o.gammaNeg > 0 || o.clip > 0;
  if (!asymmetric) return bceWithLogits(z, t, o.posWeight);
  const logP = tf.neg(tf.softplus(tf.neg(z)));
  const p = tf.sigmoid(z);
  let pos = tf.mul(t, logP);
  if (o.gammaPos > 0) pos = tf.mul(pos, tf.pow(tf.sub(1, p), o.gammaPos));
  let neg: tf.Tensor;
  if (o.clip > 0) {
    const q = tf.minimum(tf.add(tf.sigmoid(tf.neg(z)), o.clip), 1);
    neg = tf.mul(tf.sub(1, t), tf.log(q));
    if (o.gammaNeg > 0) neg = tf.mul(neg, tf.pow(tf.sub(1, q), o.gammaNeg));
  } else {
    neg = tf.mul(tf.sub(1, t), tf.neg(tf.softplus(z)));
    if (o.gammaNeg > 0) neg = tf.mul(neg, tf.pow(p, o.gammaNeg));
  }
  return tf.neg(tf.mean(tf.add(pos, neg))) as tf.Scalar;
}
