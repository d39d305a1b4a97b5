import * as tf from '@tensorflow/tfjs-core';
import { type ParameterStore } from './parameter-store';
import { channelSum } from './column-sum';
import { BATCH_NORM_GRAD_KERNEL, BATCH_NORM_TRAIN_KERNEL, hasKernel } from './fused-kernels';

const MOMENTUM = 0.1;
const EPS = 1e-5;

/** How `BatchNorm.apply` ends. @public */
export interface BatchNormOptions {
  /** max(0, ·) after the normalisation: fused into the batch-norm kernels where the backend has them. */
  readonly relu?: boolean;
}

/**
 * Batch normalisation over N·H·W for NHWC activations, as torch's BatchNorm2d (momentum 0.1, eps 1e-5,
 * unbiased running variance). Training mode uses batch statistics and records them into the running
 * buffers; inference mode uses the running buffers.
 *
 * Why a custom gradient: tfjs's FusedBatchNorm gradient tiles per-channel values to the full activation
 * and reduces over non-innermost axes, both slow on wasm. Here the backward pass is the closed form
 * dx = γ·rstd·(dy − mean(dy) − x̂·mean(dy·x̂)), with channel sums as a board-wide average pool.
 * Where the backend registered the fused kernels (MaouBatchNormTrain/Grad) each pass is one kernel instead,
 * the forward also updating the running statistics and, when asked, applying the following ReLU.
 * @public
 */
export class BatchNorm {
  readonly gamma: tf.Variable;
  readonly beta: tf.Variable;
  readonly runningMean: tf.Variable;
  readonly runningVar: tf.Variable;

  constructor(
    store: ParameterStore,
    name: string,
    readonly channels: number,
  ) {
    this.gamma = store.norm(`${name}.weight`, channels, 1);
    this.beta = store.norm(`${name}.bias`, channels, 0);
    this.runningMean = store.buffer(`${name}.running_mean`, channels, 0);
    this.runningVar = store.buffer(`${name}.running_var`, channels, 1);
  }

  /** Normalised x; with `relu`, max(0, ·) of it (one fused kernel where the backend has it, else tf.relu after). */
  apply(x: tf.Tensor4D, training: boolean, options: BatchNormOptions = {}): tf.Tensor4D {
    const relu = options.relu === true;
    if (!training) {
      return tf.tidy(() => {
        const scale = tf.mul(this.gamma, tf.rsqrt(tf.add(this.runningVar, EPS)));
        const shift = tf.sub(this.beta, tf.mul(this.runningMean, scale));
        const y = tf.add(tf.mul(x, scale), shift) as tf.Tensor4D;
        return relu ? tf.relu(y) : y;
      });
    }
    if (hasKernel(BATCH_NORM_TRAIN_KERNEL) && hasKernel(BATCH_NORM_GRAD_KERNEL))
      return (relu ? this.fusedReluOp : this.fusedOp)(x, this.gamma, this.beta) as tf.Tensor4D;
    const y = this.compositeOp(x, this.gamma, this.beta) as tf.Tensor4D;
    return relu ? tf.relu(y) : y;
  }

  /**
   * The fused kernels: one forward that also returns the new running statistics (and applies the ReLU),
   * one backward that masks dy by the ReLU's output, so relu and its gradient cost no extra pass.
   */
  private fusedTrainOp(relu: boolean) {
    return tf.customGrad((xIn, gammaIn, betaIn, save) => {
      const [x, gamma, beta] = [xIn, gammaIn, betaIn] as tf.Tensor[];
      const inputs = { x, gamma, beta, runningMean: this.runningMean, runningVar: this.runningVar };
      const [y, xhat, , , rstd, runningMean, runningVar] = tf
        .engine()
        .runKernel(BATCH_NORM_TRAIN_KERNEL, inputs, { eps: EPS, relu, momentum: MOMENTUM }) as tf.Tensor[];
      this.runningMean.assign(runningMean);
      this.runningVar.assign(runningVar);
      (save as tf.GradSaveFunc)(relu ? [xhat, rstd, y] : [xhat, rstd]);
      return {
        value: y,
        gradFunc: (dy: tf.Tensor, [xh, rs, out]: tf.Tensor[]) =>
          tf
            .engine()
            .runKernel(
              BATCH_NORM_GRAD_KERNEL,
              relu ? { dy, xhat: xh, rstd: rs, gamma, y: out } : { dy, xhat: xh, rstd: rs, gamma },
            ) as tf.Tensor[],
      };
    });
  }

  private readonly fusedOp = this.fusedTrainOp(false);
  private readonly fusedReluOp = this.fusedTrainOp(true);

  private readonly compositeOp = tf.customGrad((xIn, gammaIn, betaIn, save) => {
    const [x, gamma, beta] = [xIn, gammaIn, betaIn] as tf.Tensor[];
    const n = x.size / this.channels;
    const { y, xhat, mean, variance, rstd } = this.compositeForward(x as tf.Tensor4D, gamma, beta);
    this.updateRunning(tf.reshape(mean, [this.channels]), tf.reshape(variance, [this.channels]), n);
    (save as tf.GradSaveFunc)([xhat, rstd]);
    return {
      value: y,
      gradFunc: (dy: tf.Tensor, [xh, rs]: tf.Tensor[]) => this.compositeGrad(dy, xh, rs, gamma, n),
    };
  });

  private compositeForward(
    x: tf.Tensor4D,
    gamma: tf.Tensor,
    beta: tf.Tensor,
  ): Record<'y' | 'xhat' | 'mean' | 'variance' | 'rstd', tf.Tensor> {
    const n = x.size / this.channels;
    const mean = tf.div(channelSum(x), n);
    const centered = tf.sub(x, mean) as tf.Tensor4D;
    const variance = tf.div(channelSum(tf.square(centered) as tf.Tensor4D), n);
    const rstd = tf.rsqrt(tf.add(variance, EPS));
    const xhat = tf.mul(centered, rstd);
    const y = tf.add(tf.mul(xhat, gamma), beta);
    return { y, xhat, mean, variance, rstd };
  }

  private compositeGrad(dy: tf.Tensor, xh: tf.Tensor, rs: tf.Tensor, gamma: tf.Tensor, n: number): tf.Tensor[] {
    const c = this.channels;
    const dBeta = channelSum(dy as tf.Tensor4D);
    const dGamma = channelSum(tf.mul(dy, xh) as tf.Tensor4D);
    const inner = tf.sub(tf.sub(dy, tf.div(dBeta, n)), tf.mul(xh, tf.div(dGamma, n)));
    const dx = tf.mul(inner, tf.mul(rs, gamma));
    return [dx, tf.reshape(dGamma, [c]), tf.reshape(dBeta, [c])];
  }

  private updateRunning(mean: tf.Tensor, variance: tf.Tensor, n: number): void {
    const unbiased = tf.mul(variance, n / Math.max(n - 1, 1));
    this.runningMean.assign(tf.add(tf.mul(this.runningMean, 1 - MOMENTUM), tf.mul(mean, MOMENTUM)));
    this.runningVar.assign(tf.add(tf.mul(this.runningVar, 1 - MOMENTUM), tf.mul(unbiased, MOMENTUM)));
  }
}
