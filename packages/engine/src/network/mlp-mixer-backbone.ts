import * as tf from '@tensorflow/tfjs-core';
import { Dense } from '../nn/dense';
import { dropout, type DropoutSeeds } from '../nn/dropout';
import { gelu } from '../nn/gelu';
import { LayerNorm } from '../nn/layer-norm';
import { type Parameter, type ParameterStore } from '../nn/parameter-store';
import { type Backbone } from './backbone';
import { BOARD_TOKENS, type MixerShape, STEM } from './network-presets';
import { boardTokens, rows } from './token-input';

/** maou's `_FeedForward`: fc1 → GELU → dropout → fc2 → dropout, on rows. */
class FeedForward {
  readonly fc1: Dense;
  readonly fc2: Dense;

  constructor(store: ParameterStore, name: string, dim: number, hidden: number) {
    this.fc1 = new Dense(store, `${name}.fc1`, dim, hidden);
    this.fc2 = new Dense(store, `${name}.fc2`, hidden, dim);
  }

  apply(x: tf.Tensor2D, rate: number, seeds: DropoutSeeds): tf.Tensor2D {
    const h = dropout(gelu(this.fc1.apply(x)), rate, seeds);
    return dropout(this.fc2.apply(h), rate, seeds);
  }

  macs(): number {
    return this.fc1.macs() + this.fc2.macs();
  }
}

/** maou's `_MixerBlock`: token mixing across the 81 squares, then channel mixing, each pre-norm with a residual. */
class MixerBlock {
  private readonly tokenNorm: LayerNorm;
  private readonly tokenMlp: FeedForward;
  private readonly channelNorm: LayerNorm;
  private readonly channelMlp: FeedForward;

  constructor(
    store: ParameterStore,
    name: string,
    private readonly shape: MixerShape,
  ) {
    this.tokenNorm = new LayerNorm(store, `${name}.token_norm`, shape.embedDim);
    this.tokenMlp = new FeedForward(store, `${name}.token_mlp`, BOARD_TOKENS, shape.tokenDim);
    this.channelNorm = new LayerNorm(store, `${name}.channel_norm`, shape.embedDim);
    this.channelMlp = new FeedForward(store, `${name}.channel_mlp`, shape.embedDim, shape.channelDim);
  }

  /** `x` [B·T, E]. */
  apply(x: tf.Tensor2D, batch: number, seeds: DropoutSeeds): tf.Tensor2D {
    const e = this.shape.embedDim;
    const t = BOARD_TOKENS;
    // Token mixing runs on the transposed tokens: rows [B·E, T].
    const y = tf.transpose(tf.reshape(this.tokenNorm.apply(x), [batch, t, e]), [0, 2, 1]);
    const mixed = this.tokenMlp.apply(rows(y, t), this.shape.dropout, seeds);
    const back = rows(tf.transpose(tf.reshape(mixed, [batch, e, t]), [0, 2, 1]), e);
    const h = tf.add(x, back) as tf.Tensor2D;
    return tf.add(h, this.channelMlp.apply(this.channelNorm.apply(h), this.shape.dropout, seeds)) as tf.Tensor2D;
  }

  macs(): number {
    return this.shape.embedDim * this.tokenMlp.macs() + BOARD_TOKENS * this.channelMlp.macs();
  }
}

/**
 * maou's `ShogiMLPMixer` as a headless backbone: tokens → input LayerNorm(64) → Linear(64→E) → dropout → Mixer
 * blocks → LayerNorm(E) → dropout → mean over tokens. Freezable groups: the blocks; output norm: the last norm.
 * @public
 */
export class MlpMixerBackbone implements Backbone {
  readonly featureChannels: number;
  readonly parameters: readonly Parameter[];
  readonly groups: (readonly Parameter[])[] = [];
  readonly outputNorm: readonly Parameter[];
  private readonly inputNorm: LayerNorm;
  private readonly embedding: Dense;
  private readonly blocks: MixerBlock[] = [];
  private readonly norm: LayerNorm;

  constructor(
    store: ParameterStore,
    private readonly shape: MixerShape,
    private readonly seedsFor: (training: boolean) => DropoutSeeds,
  ) {
    const inChannels = STEM.embedding + STEM.hand;
    let inputNorm: LayerNorm | undefined;
    let embedding: Dense | undefined;
    let norm: LayerNorm | undefined;
    let outputNorm: Parameter[] = [];
    // maou registers the blocks before input_norm, embedding and norm: the store keeps that order.
    this.parameters = store.collect(() => {
      for (let i = 0; i < shape.depth; i++)
        this.groups.push(store.collect(() => this.blocks.push(new MixerBlock(store, `backbone.blocks.${i}`, shape))));
      inputNorm = new LayerNorm(store, 'backbone.input_norm', inChannels);
      embedding = new Dense(store, 'backbone.embedding', inChannels, shape.embedDim);
      outputNorm = store.collect(() => (norm = new LayerNorm(store, 'backbone.norm', shape.embedDim)));
    });
    this.inputNorm = inputNorm!;
    this.embedding = embedding!;
    this.norm = norm!;
    this.outputNorm = outputNorm;
    this.featureChannels = shape.embedDim;
  }

  apply(board: tf.Tensor3D, hand: tf.Tensor2D, training: boolean): tf.Tensor2D {
    const batch = board.shape[0];
    const seeds = this.seedsFor(training);
    const { embedDim: e, dropout: rate } = this.shape;
    const tokens = rows(boardTokens(board, hand), STEM.embedding + STEM.hand);
    let x = dropout(this.embedding.apply(this.inputNorm.apply(tokens)), rate, seeds);
    for (const block of this.blocks) x = block.apply(x, batch, seeds);
    x = dropout(this.norm.apply(x), rate, seeds);
    return tf.mean(tf.reshape(x, [batch, BOARD_TOKENS, e]), 1) as tf.Tensor2D;
  }

  macs(): number {
    return BOARD_TOKENS * this.embedding.macs() + this.blocks.reduce((s, b) => s + b.macs(), 0);
  }
}

/** Activations per sample (floats) a Mixer training step keeps for backward: a planning estimate. @public */
export function mixerActivationFloats(shape: MixerShape): number {
  const { embedDim: e, tokenDim, channelDim, depth } = shape;
  const t = BOARD_TOKENS;
  // per block: norms (output and x̂), transposes, residuals; hidden layers before/after GELU and the dropout mask
  const block = 10 * t * e + 3 * e * tokenDim + 3 * t * channelDim;
  return 4 * t * (STEM.embedding + STEM.hand) + 3 * t * e + depth * block;
}
