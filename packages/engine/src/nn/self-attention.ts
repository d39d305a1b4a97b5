import * as tf from '@tensorflow/tfjs-core';
import { Dense } from './dense';
import { type ParameterStore } from './parameter-store';

/**
 * maou's multi-head self-attention (`_FlashSelfAttention`): one fused `qkv` projection D→3D whose outputs are
 * ordered (q|k|v, head, head_dim), scaled dot-product attention per head without dropout, then `proj` D→D.
 * Heads are batched into the leading axis so each product is one batched matmul.
 * @public
 */
export class SelfAttention {
  readonly qkv: Dense;
  readonly proj: Dense;
  private readonly headDim: number;

  constructor(
    store: ParameterStore,
    name: string,
    readonly dim: number,
    readonly heads: number,
  ) {
    if (dim % heads !== 0) throw new Error(`embed_dim ${dim} must be divisible by num_heads ${heads}`);
    this.headDim = dim / heads;
    this.qkv = new Dense(store, `${name}.qkv`, dim, 3 * dim);
    this.proj = new Dense(store, `${name}.proj`, dim, dim);
  }

  /** `x` [B·T, D] rows of `batch` sequences of `tokens` tokens; returns [B·T, D]. */
  apply(x: tf.Tensor2D, batch: number, tokens: number): tf.Tensor2D {
    const { heads, headDim, dim } = this;
    const [q, k, v] = tf.split(this.qkv.apply(x), 3, 1);
    const split = (t: tf.Tensor) =>
      tf.reshape(tf.transpose(tf.reshape(t, [batch, tokens, heads, headDim]), [0, 2, 1, 3]), [
        batch * heads,
        tokens,
        headDim,
      ]) as tf.Tensor3D;
    const scores = tf.matMul(split(tf.mul(q, 1 / Math.sqrt(headDim))), split(k), false, true);
    const out = tf.matMul(tf.softmax(scores), split(v));
    const merged = tf.reshape(tf.transpose(tf.reshape(out, [batch, heads, tokens, headDim]), [0, 2, 1, 3]), [
      batch * tokens,
      dim,
    ]) as tf.Tensor2D;
    return this.proj.apply(merged);
  }

  /** Multiply-adds per sequence: the two projections and the two attention products. */
  macs(tokens: number): number {
    return tokens * (this.qkv.macs() + this.proj.macs()) + 2 * tokens * tokens * this.dim;
  }
}
