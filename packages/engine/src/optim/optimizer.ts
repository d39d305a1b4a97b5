import * as tf from '@tensorflow/tfjs-core';
import { ADAMW_KERNEL, hasKernel } from '../nn/fused-kernels';
import { type Parameter } from '../nn/parameter-store';

/** Hyper-parameters shared by both optimisers (maou §7.6). @public */
export interface OptimizerSettings {
  readonly name: 'adamw' | 'sgd';
  readonly momentum: number;
  readonly beta1: number;
  readonly beta2: number;
  readonly eps: number;
  readonly weightDecay: number;
}

/**
 * AdamW (decoupled decay) or SGD with momentum (L2 decay added to the gradient), torch semantics,
 * with maou's two parameter groups: decay only where `Parameter.decay` (weights of conv, linear,
 * embedding), none on biases and batch-norm parameters. AdamW runs as one MaouAdamW kernel per tensor
 * where the backend registered it (about 13 ops otherwise).
 * @public
 */
export class Optimizer {
  private readonly m: tf.Variable[];
  private readonly v: tf.Variable[];
  private t = 0;

  constructor(
    private readonly params: readonly Parameter[],
    private readonly s: OptimizerSettings,
  ) {
    // tidy frees the zeros tensor; the variable keeps its own reference to the data.
    const zeros = (p: Parameter, tag: string) =>
      tf.tidy(() => tf.variable(tf.zerosLike(p.variable), false, `${p.variable.name}/${tag}`));
    this.m = params.map((p) => zeros(p, 'm'));
    this.v = s.name === 'adamw' ? params.map((p) => zeros(p, 'v')) : [];
  }

  /** One update with learning rate `lr`; gradients are in parameter order. */
  apply(grads: readonly tf.Tensor[], lr: number): void {
    this.t++;
    tf.tidy(() => (this.s.name === 'adamw' ? this.adamw(grads, lr) : this.sgd(grads, lr)));
  }

  dispose(): void {
    for (const x of [...this.m, ...this.v]) x.dispose();
  }

  private adamw(grads: readonly tf.Tensor[], lr: number): void {
    const { beta1, beta2, eps, weightDecay } = this.s;
    if (hasKernel(ADAMW_KERNEL)) {
      this.params.forEach((p, i) => {
        const attrs = { lr, beta1, beta2, eps, weightDecay: p.decay ? weightDecay : 0, step: this.t };
        const [param, m, v] = tf
          .engine()
          .runKernel(
            ADAMW_KERNEL,
            { param: p.variable, grad: grads[i], m: this.m[i], v: this.v[i] },
            attrs,
          ) as tf.Tensor[];
        this.m[i].assign(m);
        this.v[i].assign(v);
        p.variable.assign(param);
      });
      return;
    }
    const bc1 = 1 - beta1 ** this.t;
    const bc2 = Math.sqrt(1 - beta2 ** this.t);
    this.params.forEach((p, i) => {
      const g = grads[i];
      const m = tf.add(tf.mul(this.m[i], beta1), tf.mul(g, 1 - beta1));
      const v = tf.add(tf.mul(this.v[i], beta2), tf.mul(tf.square(g), 1 - beta2));
      this.m[i].assign(m);
      this.v[i].assign(v);
      const decayed = p.decay && weightDecay > 0 ? tf.mul(p.variable, 1 - lr * weightDecay) : p.variable;
      const update = tf.div(m, tf.add(tf.div(tf.sqrt(v), bc2), eps));
      p.variable.assign(tf.sub(decayed, tf.mul(update, lr / bc1)));
    });
  }

  private sgd(grads: readonly tf.Tensor[], lr: number): void {
    const { momentum, weightDecay } = this.s;
    this.params.forEach((p, i) => {
      const g = p.decay && weightDecay > 0 ? tf.add(grads[i], tf.mul(p.variable, weightDecay)) : grads[i];
      let d = g;
      if (momentum > 0) {
        // torch: the first step's buffer is the gradient itself.
        d = this.t === 1 ? g : tf.add(tf.mul(this.m[i], momentum), g);
        this.m[i].assign(d);
      }
      p.variable.assign(tf.sub(p.variable, tf.mul(d, lr)));
    });
  }
}
