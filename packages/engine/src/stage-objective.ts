import * as tf from '@tensorflow/tfjs-core';
import { type Stage, type TrainingConfig } from '@maou/bench-domain';
import { type DeviceBatch } from './device-batch';
import { multiLabelLoss } from './loss/multi-label-loss';
import { stage3Loss } from './loss/stage3-loss';
import { type NetworkOutputs } from './network/shogi-network';

/** The loss and the evaluation metrics of one stage. @public */
export interface StageObjective {
  loss(out: NetworkOutputs, batch: DeviceBatch): tf.Scalar;
  /** scalar metrics, e.g. policy top-1 accuracy */
  metrics(out: NetworkOutputs, batch: DeviceBatch): Record<string, tf.Scalar>;
}

/** Picks the stage's loss with the user's weights and ASL settings. @public */
export function createObjective(stage: Stage, cfg: TrainingConfig): StageObjective {
  if (stage === 3) {
    const weights = { policy: cfg.policyLossRatio, value: cfg.valueLossRatio };
    return {
      loss: (out, b) => stage3Loss(out.logits, out.value!, b.targets[0], b.targets[1], b.negEntropySum, weights),
      metrics: (out, b) => ({
        policy_accuracy: meanOf(tf.equal(tf.argMax(out.logits, 1), tf.argMax(b.targets[0], 1))),
        value_accuracy: meanOf(tf.equal(tf.greater(out.value!, 0), tf.greater(b.targets[1], 0.5))),
      }),
    };
  }
  const options =
    stage === 1
      ? { posWeight: cfg.stage1PosWeight, gammaPos: 0, gammaNeg: 0, clip: 0 }
      : {
          posWeight: cfg.stage2PosWeight,
          gammaPos: cfg.stage2GammaPos,
          gammaNeg: cfg.stage2GammaNeg,
          clip: cfg.stage2Clip,
        };
  return {
    loss: (out, b) => multiLabelLoss(out.logits, b.targets[0], options),
    metrics: (out, b) => ({ accuracy: meanOf(tf.equal(tf.greater(out.logits, 0), tf.greater(b.targets[0], 0.5))) }),
  };
}

function meanOf(hits: tf.Tensor): tf.Scalar {
  return tf.mean(tf.cast(hits, 'float32'));
}
