import * as tf from '@tensorflow/tfjs-core';
import {
  BOARD_SQUARES,
  HAND_KINDS,
  isResNetPreset,
  MOVE_LABELS,
  type ModelPreset,
  type Stage,
  type VitSettings,
} from '@maou/bench-domain';
import { Dense } from '../nn/dense';
import { dropout, dropoutSeeds } from '../nn/dropout';
import { embeddingLookup } from '../nn/embedding';
import { gelu } from '../nn/gelu';
import { offTape } from '../nn/off-tape';
import { type Parameter, ParameterStore } from '../nn/parameter-store';
import { type SeededRandom } from '../nn/seeded-random';
import { type Backbone } from './backbone';
import { MlpMixerBackbone } from './mlp-mixer-backbone';
import {
  MIXER_DEFAULTS,
  NETWORK_PRESETS,
  type MixerShape,
  type NetworkShape,
  STEM,
  VIT_DEFAULTS,
} from './network-presets';
import { ResNetBackbone } from './resnet-backbone';
import { VitBackbone } from './vit-backbone';

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
  /** `vit` only: `--vit-*` overrides of maou's defaults */
  readonly vit?: Partial<VitSettings>;
  /** `vit` only: recompute each encoder block in backward */
  readonly gradientCheckpointing?: boolean;
  /** `mlp-mixer` only: a smaller mixer than maou's (maou's CLI has no such flags; specs use it to stay cheap) */
  readonly mixer?: Partial<MixerShape>;
  /** stem and backbone all frozen (`--freeze-backbone`): they run off the gradient tape, keeping no activations */
  readonly frozenBackbone?: boolean;
}

/**
 * maou's shogi network on tfjs-core: embedding 256×32 of board ids and a 14→32 hand projection, a backbone
 * (ResNet, MLP-Mixer or ViT, each combining the two as maou does), then the stage's heads on pooled features.
 * @public
 */
export class ShogiNetwork {
  readonly store: ParameterStore;
  readonly featureChannels: number;
  readonly backbone: Backbone;
  private readonly embedding: tf.Variable;
  private readonly hand: Dense;
  private readonly heads: Dense[];
  private readonly dropout: number;

  constructor(private readonly options: NetworkOptions) {
    const store = new ParameterStore(options.rng);
    this.store = store;
    this.embedding = store.embedding('embedding.weight', STEM.vocabulary, STEM.embedding);
    this.hand = new Dense(store, 'hand_projection', HAND_KINDS, STEM.hand);
    this.backbone = buildBackbone(store, options);
    this.featureChannels = this.backbone.featureChannels;
    this.heads = this.buildHeads(store, this.featureChannels);
    this.dropout = options.stage === 2 && options.stage2HiddenDim > 0 ? options.stage2Dropout : 0;
  }

  apply(inputs: NetworkInputs, training: boolean): NetworkOutputs {
    const features = this.options.frozenBackbone
      ? offTape(() => this.features(inputs, training), [inputs.boardIds, inputs.hands])
      : this.features(inputs, training);
    return this.applyHeads(features, training);
  }

  parameterCount(): number {
    return this.store.count();
  }

  /**
   * What trains under maou's benchmark freezing (`freeze_except_last_n(n)`, then the hand projection): the board
   * embedding, the hand projection and every backbone parameter freeze, then the last `n` freezable groups (all of
   * them when n exceeds their count) and, when n > 0, the backbone's output norm train again; the heads always
   * train. null: everything trains.
   */
  trainableParameters(trainableLayers: number | null): Parameter[] {
    const all = this.store.parameters;
    if (trainableLayers === null) return [...all];
    const groups = this.backbone.groups;
    const kept = groups.slice(groups.length - Math.min(trainableLayers, groups.length)).flat();
    const thawed = new Set<Parameter>([...kept, ...(trainableLayers > 0 ? this.backbone.outputNorm : [])]);
    const stem = [this.embedding, this.hand.weight, this.hand.bias];
    const frozen = new Set<Parameter>([...all.filter((p) => stem.includes(p.variable)), ...this.backbone.parameters]);
    return all.filter((p) => !frozen.has(p) || thawed.has(p));
  }

  /** Multiply-adds of one forward pass per sample (convolutions, linear layers and attention products). */
  multiplyAddsPerSample(): number {
    return this.hand.macs() + this.backbone.macs() + this.heads.reduce((s, d) => s + d.macs(), 0);
  }

  dispose(): void {
    this.store.dispose();
  }

  private features(inputs: NetworkInputs, training: boolean): tf.Tensor2D {
    const batch = inputs.boardIds.shape[0];
    const ids = tf.reshape(inputs.boardIds, [-1]) as tf.Tensor1D;
    const board = tf.reshape(embeddingLookup(this.embedding as tf.Tensor2D, ids), [batch, 81, STEM.embedding]);
    return this.backbone.apply(board as tf.Tensor3D, this.hand.apply(inputs.hands), training);
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
    const h = dropout(
      gelu(this.heads[0].apply(features)),
      this.dropout,
      dropoutSeeds(this.options.dropoutRng ?? this.options.rng, training),
    );
    return { logits: this.heads[1].apply(h), value: null };
  }
}

function buildBackbone(store: ParameterStore, o: NetworkOptions): Backbone {
  const dropoutRng = o.dropoutRng ?? o.rng;
  const seedsFor = (training: boolean) => dropoutSeeds(dropoutRng, training);
  if (isResNetPreset(o.preset)) return new ResNetBackbone(store, o.shape ?? NETWORK_PRESETS[o.preset]);
  if (o.preset === 'mlp-mixer') return new MlpMixerBackbone(store, { ...MIXER_DEFAULTS, ...o.mixer }, seedsFor);
  if (o.preset === 'vit')
    return new VitBackbone(store, { ...VIT_DEFAULTS, ...o.vit }, o.gradientCheckpointing ?? false, seedsFor);
  throw new Error(`unknown network preset '${String(o.preset)}' (known: lite, resnet, mlp-mixer, vit)`);
}
