import * as tf from '@tensorflow/tfjs-core';
import { columnSum } from './column-sum';
import { hasKernel, LAYER_NORM_GRAD_KERNEL, LAYER_NORM_KERNEL } from './fused-kernels';
import { type ParameterStore } from './parameter-store';

/** torch's LayerNorm default epsilon. */
const EPS = 1e-5;

/**
 * torch's LayerNorm over the last axis (γ=1, β=0 at start, never decayed), with the analytic backward as one node:
 * dx = rstd·(g − mean(g) − x̂·mean(g·x̂)) with g = dy·γ; dγ = Σ dy·x̂ and dβ = Σ dy over every row. Where the backend
 * registers the fused layer-norm kernels (the fast wasm set, webgpu), each direction is one kernel.
 * @public
 */
export class LayerNorm {
  readonly gamma: tf.Variable;
  readonly beta: tf.Variable;

  constructor(
    store: ParameterStore,
    name: string,
    readonly size: number,
  ) {
    this.gamma = store.norm(`${name}.weight`, size, 1);
    this.beta = store.norm(`${name}.bias`, size, 0);
  }

  apply<T extends tf.Tensor>(x: T): T {
    if (hasKernel(LAYER_NORM_KERNEL) && hasKernel(LAYER_NORM_GRAD_KERNEL))
      return fusedLayerNorm(x, this.gamma, this.beta) as T;
    const c = this.size;
    const op = tf.customGrad((input, gamma, beta, save) => {
      const v = input as tf.Tensor;
      const mean = tf.mean(v, -1, true);
      const centred = tf.sub(v, mean);
      const rstd = tf.rsqrt(tf.add(tf.mean(tf.square(centred), -1, true), EPS));
      const xhat = tf.mul(centred, rstd);
      (save as tf.GradSaveFunc)([xhat, rstd, gamma as tf.Tensor]);
      return {
        value: tf.add(tf.mul(xhat, gamma as tf.Tensor), beta as tf.Tensor),
        gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => {
          const [xh, rs, g] = saved;
          const dg = tf.mul(dy, g);
          const dx = tf.mul(
            rs,
            tf.sub(tf.sub(dg, tf.mean(dg, -1, true)), tf.mul(xh, tf.mean(tf.mul(dg, xh), -1, true))),
          );
          const rows = (t: tf.Tensor) => tf.reshape(columnSum(tf.reshape(t, [-1, c]) as tf.Tensor2D), [c]);
          return [dx, rows(tf.mul(dy, xh)), rows(dy)];
        },
      };
    });
    return op(x, this.gamma, this.beta) as T;
  }
}

const fusedLayerNorm = tf.customGrad((input, gamma, beta, save) => {
  const [y, xhat, rstd] = tf
    .engine()
    .runKernel(
      LAYER_NORM_KERNEL,
      { x: input as tf.Tensor, gamma: gamma as tf.Tensor, beta: beta as tf.Tensor },
      { eps: EPS },
    ) as tf.Tensor[];
  (save as tf.GradSaveFunc)([xhat, rstd, gamma as tf.Tensor]);
  return {
    value: y,
    gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) =>
      tf.engine().runKernel(LAYER_NORM_GRAD_KERNEL, {
        dy,
        xhat: saved[0],
        rstd: saved[1],
        gamma: saved[2],
      }) as tf.Tensor[],
  };
});
