import * as tf from '@tensorflow/tfjs-core';
import { type VitSettings } from '@maou/bench-domain';
import { checkpointed } from '../nn/checkpoint';
import { Dense } from '../nn/dense';
import { dropout, type DropoutSeeds } from '../nn/dropout';
import { gelu } from '../nn/gelu';
import { LayerNorm } from '../nn/layer-norm';
import { type Parameter, type ParameterStore } from '../nn/parameter-store';
import { SelfAttention } from '../nn/self-attention';
import { type Backbone } from './backbone';
import { BOARD_TOKENS, STEM } from './network-presets';
import { boardTokens, rows } from './token-input';

/** maou's `ViTEncoderBlock`: pre-norm attention and MLP (Linear → GELU → dropout → Linear → dropout), each residual. */
class EncoderBlock {
  private readonly norm1: LayerNorm;
  private readonly attn: SelfAttention;
  private readonly norm2: LayerNorm;
  private readonly fc1: Dense;
  private readonly fc2: Dense;

  constructor(
    store: ParameterStore,
    name: string,
    private readonly vit: VitSettings,
  ) {
    const hidden = Math.trunc(vit.embedDim * vit.mlpRatio);
    this.norm1 = new LayerNorm(store, `${name}.norm1`, vit.embedDim);
    this.attn = new SelfAttention(store, `${name}.attn`, vit.embedDim, vit.numHeads);
    this.norm2 = new LayerNorm(store, `${name}.norm2`, vit.embedDim);
    this.fc1 = new Dense(store, `${name}.mlp.0`, vit.embedDim, hidden);
    this.fc2 = new Dense(store, `${name}.mlp.3`, hidden, vit.embedDim);
  }

  /** `x` [B·T, D]. */
  apply(x: tf.Tensor2D, batch: number, seeds: DropoutSeeds): tf.Tensor2D {
    const rate = this.vit.dropout;
    const a = this.attn.apply(this.norm1.apply(x), batch, BOARD_TOKENS);
    const h = tf.add(x, dropout(a, rate, seeds)) as tf.Tensor2D;
    const m = this.fc2.apply(dropout(gelu(this.fc1.apply(this.norm2.apply(h))), rate, seeds));
    return tf.add(h, dropout(m, rate, seeds)) as tf.Tensor2D;
  }

  macs(): number {
    return this.attn.macs(BOARD_TOKENS) + BOARD_TOKENS * (this.fc1.macs() + this.fc2.macs());
  }
}

/**
 * maou's `VisionTransformer` as a headless backbone: tokens → Linear(64→D) + learned positional embedding →
 * dropout → encoder blocks → LayerNorm(D) → mean over tokens. Freezable groups: the encoder blocks; output norm:
 * the last norm. With `checkpointing`, blocks keep only their input and recompute the rest in backward.
 * @public
 */
export class VitBackbone implements Backbone {
  readonly featureChannels: number;
  readonly parameters: readonly Parameter[];
  readonly groups: (readonly Parameter[])[] = [];
  readonly outputNorm: readonly Parameter[];
  private readonly projection: Dense;
  private readonly position: tf.Variable;
  private readonly blocks: EncoderBlock[] = [];
  private readonly norm: LayerNorm;

  constructor(
    store: ParameterStore,
    private readonly vit: VitSettings,
    private readonly checkpointing: boolean,
    private readonly seedsFor: (training: boolean) => DropoutSeeds,
  ) {
    const inChannels = STEM.embedding + STEM.hand;
    let projection: Dense | undefined;
    let position: tf.Variable | undefined;
    let norm: LayerNorm | undefined;
    let outputNorm: Parameter[] = [];
    this.parameters = store.collect(() => {
      // trunc_normal(std 0.02) weights and a zero bias, as maou's _reset_parameters
      projection = new Dense(store, 'backbone.token_projection', inChannels, vit.embedDim, 0.02);
      position = store.normal('backbone.positional_embedding', [1, BOARD_TOKENS, vit.embedDim], 0.02);
      for (let i = 0; i < vit.numLayers; i++)
        this.groups.push(store.collect(() => this.blocks.push(new EncoderBlock(store, `backbone.encoder.${i}`, vit))));
      outputNorm = store.collect(() => (norm = new LayerNorm(store, 'backbone.norm', vit.embedDim)));
    });
    this.projection = projection!;
    this.position = position!;
    this.norm = norm!;
    this.outputNorm = outputNorm;
    this.featureChannels = vit.embedDim;
  }

  apply(board: tf.Tensor3D, hand: tf.Tensor2D, training: boolean): tf.Tensor2D {
    const batch = board.shape[0];
    const d = this.vit.embedDim;
    const seeds = this.seedsFor(training);
    const tokens = rows(boardTokens(board, hand), STEM.embedding + STEM.hand);
    const placed = tf.add(tf.reshape(this.projection.apply(tokens), [batch, BOARD_TOKENS, d]), this.position);
    let x = rows(dropout(placed, this.vit.dropout, seeds), d);
    this.groups.forEach((group, i) => {
      const block = this.blocks[i]!;
      x =
        this.checkpointing && training
          ? checkpointed(
              (input, s) => block.apply(input, batch, s),
              x,
              group.map((p) => p.variable),
              seeds,
            )
          : block.apply(x, batch, seeds);
    });
    return tf.mean(tf.reshape(this.norm.apply(x), [batch, BOARD_TOKENS, d]), 1) as tf.Tensor2D;
  }

  macs(): number {
    return (
      BOARD_TOKENS * (STEM.embedding + STEM.hand) * this.vit.embedDim + this.blocks.reduce((s, b) => s + b.macs(), 0)
    );
  }
}

/** Activations per sample (floats) a ViT training step keeps for backward: a planning estimate. @public */
export function vitActivationFloats(vit: VitSettings, checkpointing: boolean): number {
  const t = BOARD_TOKENS;
  const d = vit.embedDim;
  // per block: norms (output and x̂), q/k/v and their head layout, scores and softmax, merged heads, MLP hidden ×3,
  // residuals
  const block = 14 * t * d + 3 * t * Math.trunc(d * vit.mlpRatio) + 2 * vit.numHeads * t * t;
  // checkpointed: each block's input, and one block's activations while it is recomputed
  const blocks = checkpointing ? t * d * vit.numLayers + block : block * vit.numLayers;
  return 4 * t * (STEM.embedding + STEM.hand) + 3 * t * d + blocks;
}
