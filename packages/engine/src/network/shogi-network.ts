import * as tf from '@tensorflow/tfjs-core';
import { BOARD_SQUARES, HAND_KINDS, MOVE_LABELS, type ModelPreset, type Stage } from '@maou/bench-domain';
import { Dense } from '../nn/dense';
import { embeddingLookup } from '../nn/embedding';
import { ParameterStore } from '../nn/parameter-store';
import { type SeededRandom } from '../nn/seeded-random';
import { BottleneckBlock } from './bottleneck-block';
import { NETWORK_PRESETS, type NetworkShape, STAGE_STRIDES, STEM } from './network-presets';

/** Device inputs of one batch: board ids [B,81] int32 and hands [B,14] float32. @public */
export interface NetworkInputs {
  readonly boardIds: tf.Tensor2D;
  readonly hands: tf.Tensor2D;
}

/** Head outputs: Stage 3 policy logits + value logit; Stage 1/2 one multi-label logit matrix. @public */
export interface NetworkOutputs {
  readonly logits: tf.Tensor2D;
  readonly value: tf.Tensor2D | null;
}

/** Options of the network beyond the preset. @public */
export interface NetworkOptions {
  readonly preset: ModelPreset;
  /** blocks and widths instead of the preset's (specs: the same topology, narrower) */
  readonly shape?: NetworkShape;
  readonly stage: Stage;
  /** Stage 2 head hidden width; 0 means a single linear layer */
  readonly stage2HiddenDim: number;
  readonly stage2Dropout: number;
  readonly rng: SeededRandom;
  /** dropout's own stream (data-parallel replicas: one each, so their masks differ); defaults to `rng` */
  readonly dropoutRng?: SeededRandom;
}

/**
 * maou's shogi network on tfjs-core, NHWC: embedding 256×32 of board ids plus a 14→32 hand projection
 * broadcast over the board (64 channels), bottleneck stages, global average pool, then the stage's heads.
 * @public
 */
export class ShogiNetwork {
  readonly store: ParameterStore;
  readonly featureChannels: number;
  private readonly embedding: tf.Variable;
  private readonly hand: Dense;
  private readonly blocks: BottleneckBlock[] = [];
  private readonly heads: Dense[];
  private readonly dropout: number;

  constructor(private readonly options: NetworkOptions) {
    const shape = options.shape ?? (NETWORK_PRESETS[options.preset] as NetworkShape | undefined);
    if (!shape)
      throw new Error(`unknown network preset '${options.preset}' (known: ${Object.keys(NETWORK_PRESETS).join(', ')})`);
    const store = new ParameterStore(options.rng);
    this.store = store;
    this.embedding = store.embedding('embedding.weight', STEM.vocabulary, STEM.embedding);
    this.hand = new Dense(store, 'hand_projection', HAND_KINDS, STEM.hand);
    let channels = STEM.embedding + STEM.hand;
    shape.blocks.forEach((count, stageIndex) => {
      for (let i = 0; i < count; i++) {
        const stride = i === 0 ? STAGE_STRIDES[stageIndex] : 1;
        const block = new BottleneckBlock(
          store,
          `layer${stageIndex + 1}.${i}`,
          channels,
          shape.widths[stageIndex],
          stride,
        );
        this.blocks.push(block);
        channels = block.outChannels;
      }
    });
    this.featureChannels = channels;
    this.heads = this.buildHeads(store, channels);
    this.dropout = options.stage === 2 && options.stage2HiddenDim > 0 ? options.stage2Dropout : 0;
  }

  apply(inputs: NetworkInputs, training: boolean): NetworkOutputs {
    const batch = inputs.boardIds.shape[0];
    const ids = tf.reshape(inputs.boardIds, [-1]) as tf.Tensor1D;
    const board = tf.reshape(embeddingLookup(this.embedding as tf.Tensor2D, ids), [batch, 9, 9, STEM.embedding]);
    const hand = tf.reshape(this.hand.apply(inputs.hands), [batch, 1, 1, STEM.hand]);
    // Broadcast by adding a zero board: tfjs-wasm's Tile (what broadcastTo runs) took ~15 ms here at batch 128.
    const handPlanes = tf.add(hand, tf.zeros([1, 9, 9, STEM.hand]));
    let x = tf.concat([board, handPlanes], 3) as tf.Tensor4D;
    for (const block of this.blocks) x = block.apply(x, training);
    const features = tf.mean(x, [1, 2]) as tf.Tensor2D;
    return this.applyHeads(features, training);
  }

  parameterCount(): number {
    return this.store.count();
  }

  /** Multiply-adds of one forward pass per sample (convolutions and linear layers, as torch hooks count). */
  multiplyAddsPerSample(): number {
    let h = 9;
    let total = this.hand.macs();
    for (const block of this.blocks) {
      total += block.macs(h);
      h = block.outSize(h);
    }
    return total + this.heads.reduce((s, d) => s + d.macs(), 0);
  }

  dispose(): void {
    this.store.dispose();
  }

  private buildHeads(store: ParameterStore, c: number): Dense[] {
    const { stage, stage2HiddenDim } = this.options;
    if (stage === 3) return [new Dense(store, 'policy_head', c, MOVE_LABELS), new Dense(store, 'value_head', c, 1)];
    if (stage === 1) return [new Dense(store, 'reachable_head', c, BOARD_SQUARES)];
    if (stage2HiddenDim > 0) {
      return [
        new Dense(store, 'legal_head.hidden', c, stage2HiddenDim),
        new Dense(store, 'legal_head.out', stage2HiddenDim, MOVE_LABELS),
      ];
    }
    return [new Dense(store, 'legal_head', c, MOVE_LABELS)];
  }

  private applyHeads(features: tf.Tensor2D, training: boolean): NetworkOutputs {
    if (this.options.stage === 3)
      return { logits: this.heads[0].apply(features), value: this.heads[1].apply(features) };
    if (this.heads.length === 1) return { logits: this.heads[0].apply(features), value: null };
    let h = gelu(this.heads[0].apply(features));
    if (training && this.dropout > 0)
      h = tf.dropout(
        h,
        this.dropout,
        undefined,
        Math.floor((this.options.dropoutRng ?? this.options.rng).next() * 2 ** 31),
      ) as tf.Tensor2D;
    return { logits: this.heads[1].apply(h), value: null };
  }
}

/** Exact (erf) GELU, as torch's default. */
function gelu(x: tf.Tensor2D): tf.Tensor2D {
  return tf.mul(tf.mul(x, 0.5), tf.add(tf.erf(tf.mul(x, Math.SQRT1_2)), 1));
}
