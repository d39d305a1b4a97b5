import { NETWORK_PRESETS, STAGE_STRIDES, STEM } from '@maou/bench-engine';
import type { NetworkShape } from '@maou/bench-engine/contracts';
import { BOARD_SQUARES, HAND_KINDS, MOVE_LABELS, type ResNetPreset, type Stage } from '@maou/bench-domain';
import {
  convFilterGrad,
  convForward,
  convGeometry,
  convInputGrad,
  type ConvShape,
  denseForward,
  denseInputGrad,
  denseParamGrad,
  type DenseShape,
  embeddingGrad,
  gradientNormParts,
  handGrad,
  lossTotal,
  multiLabelLoss,
  type MultiLabelSettings,
  type Activation,
  convStatsFloats,
  normFinish,
  normGradSums,
  type ReluMask,
  normInputGrad,
  NORM_PARTS,
  NORM_STAT_ROWS,
  type NormShape,
  parameterUpdate,
  poolBackward,
  poolForward,
  stage3Loss,
  stemForward,
  type UpdateSettings,
} from './kernels';
import { scaleLossGradients, SCALE_FLOATS, updateLossScale } from './loss-scaling';
import { activationType, type ActivationType, type Dispatch, gemmTile, isActivation } from './wgsl';

/** A trainable tensor of the flat parameter buffer, in the engine's parameter order. @public */
export interface FlatParameter {
  readonly name: string;
  readonly size: number;
  readonly decay: boolean;
}

/** Sizes that split the step's long reductions over workgroups, so a large GPU has work for all its cores. @public */
export interface SplitSizes {
  /** filter gradients split K when each split keeps at least this many output pixels */
  readonly minSplitRows: number;
  /** a norm's gradient sums take this many rows a workgroup (the unsplit sums were 60–73 % of an H100's step) */
  readonly reduceChunkRows: number;
  /** the embedding gradient scans this many board positions a thread */
  readonly embeddingChunkPositions: number;
}

/** @public */
export const SPLIT_SIZES: SplitSizes = { minSplitRows: 256, reduceChunkRows: 512, embeddingChunkPositions: 2048 };

/** What the plan needs beyond the preset: the stage's head and loss, and the optimiser. @public */
export interface PlanSettings {
  readonly preset: ResNetPreset;
  /** blocks and widths instead of the preset's (the engine's `networkShape`; specs: the same topology, narrower) */
  readonly shape?: NetworkShape;
  readonly stage: Stage;
  readonly stage2HiddenDim: number;
  readonly policyLossRatio: number;
  readonly valueLossRatio: number;
  readonly stage1PosWeight: number;
  readonly stage2: Omit<MultiLabelSettings, 'posWeight'> & { readonly posWeight: number };
  readonly update: UpdateSettings;
  /** how finely the step's long reductions are split over workgroups (defaults: `SPLIT_SIZES`; tests lower them) */
  readonly split?: Partial<SplitSizes>;
  /**
   * 'f16' (`--mixed-precision`): activations and their gradients stored as f16, with dynamic loss scaling; parameters,
   * gradients, optimiser state and all arithmetic stay f32. Default 'f32'.
   */
  readonly activations?: ActivationType;
  /** good steps before the loss scale doubles (default PyTorch's 2,000; tests lower it) */
  readonly scaleGrowthInterval?: number;
}

/** The whole step as data: buffer sizes (floats) and the dispatches in order, before any GPU object exists. @public */
export interface StepDescription {
  readonly batch: number;
  readonly buffers: ReadonlyMap<string, number>;
  /** buffers stored as f16 (2 bytes an element; the rest are 4) */
  readonly halfBuffers: ReadonlySet<string>;
  readonly dispatches: readonly Dispatch[];
  /** flat offsets of every parameter (by engine name) in P and G */
  readonly offsets: ReadonlyMap<string, number>;
  /** running statistics: [mean, var] of each batch norm (by engine name) at this offset of R */
  readonly runningOffsets: ReadonlyMap<string, number>;
  readonly parameterFloats: number;
  readonly runningFloats: number;
  /** index of the first dispatch of each phase (the forward starts at 0) */
  readonly phaseStarts: Readonly<Record<'loss' | 'backward' | 'optimizer', number>>;
}

/** Bottleneck expansion of the engine's blocks (a mismatch shows as wrong parameter sizes, refused at set-up). */
const EXPANSION = 4;

interface Block {
  readonly prefix: string;
  readonly reduce: ConvShape;
  readonly spatial: ConvShape;
  readonly expand: ConvShape;
  readonly shortcut: ConvShape | null;
  readonly norms: Readonly<Record<'reduce' | 'spatial' | 'expand' | 'shortcut', NormShape | null>>;
}

/** The engine's parameter list of a preset and stage, in its order (checked against the engine's store at set-up). @public */
export function flatParameters(
  preset: ResNetPreset,
  stage: Stage,
  stage2HiddenDim: number,
  shape: NetworkShape = NETWORK_PRESETS[preset],
): FlatParameter[] {
  const out: FlatParameter[] = [
    { name: 'embedding.weight', size: STEM.vocabulary * STEM.embedding, decay: true },
    { name: 'hand_projection.weight', size: HAND_KINDS * STEM.hand, decay: true },
    { name: 'hand_projection.bias', size: STEM.hand, decay: false },
  ];
  const convBn = (name: string, cin: number, cout: number, k: number) =>
    out.push(
      { name: `${name}.conv.weight`, size: k * k * cin * cout, decay: true },
      { name: `${name}.bn.weight`, size: cout, decay: false },
      { name: `${name}.bn.bias`, size: cout, decay: false },
    );
  let channels = STEM.embedding + STEM.hand;
  shape.blocks.forEach((count, s) => {
    const w = shape.widths[s]!;
    for (let i = 0; i < count; i++) {
      const stride = i === 0 ? STAGE_STRIDES[s]! : 1;
      const name = `layer${s + 1}.${i}`;
      convBn(`${name}.1`, channels, w, 1);
      convBn(`${name}.2`, w, w, 3);
      convBn(`${name}.3`, w, w * EXPANSION, 1);
      if (stride !== 1 || channels !== w * EXPANSION) convBn(`${name}.shortcut`, channels, w * EXPANSION, 1);
      channels = w * EXPANSION;
    }
  });
  const dense = (name: string, i: number, o: number) =>
    out.push({ name: `${name}.weight`, size: i * o, decay: true }, { name: `${name}.bias`, size: o, decay: false });
  if (stage === 3) {
    dense('policy_head', channels, MOVE_LABELS);
    dense('value_head', channels, 1);
  } else if (stage === 1) {
    dense('reachable_head', channels, BOARD_SQUARES);
  } else if (stage2HiddenDim > 0) {
    dense('legal_head.hidden', channels, stage2HiddenDim);
    dense('legal_head.out', stage2HiddenDim, MOVE_LABELS);
  } else {
    dense('legal_head', channels, MOVE_LABELS);
  }
  return out;
}

/**
 * Plans one training step at a fixed batch size: forward, loss, backward and the parameter update, as one
 * ordered list of dispatches over named buffers. Nothing here touches the GPU, so the dispatch count of any
 * preset and batch can be computed anywhere; `materialize` turns the description into GPU objects.
 * @public
 */
export function describeStep(s: PlanSettings, batch: number): StepDescription {
  const shape = s.shape ?? NETWORK_PRESETS[s.preset];
  const params = flatParameters(s.preset, s.stage, s.stage2HiddenDim, shape);
  const offsets = new Map<string, number>();
  let parameterFloats = 0;
  for (const p of params) {
    offsets.set(p.name, parameterFloats);
    parameterFloats += p.size;
  }
  const off = (name: string): number => {
    const o = offsets.get(name);
    if (o === undefined) throw new Error(`planned step: no parameter ${name}`);
    return o;
  };
  const runningOffsets = new Map<string, number>();
  let runningFloats = 0;
  let statsFloats = 0;
  const buffers = new Map<string, number>();
  const buf = (name: string, floats: number): string => {
    buffers.set(name, floats);
    return name;
  };
  const norm = (name: string, channels: number): NormShape => {
    runningOffsets.set(`${name}.bn`, runningFloats);
    const n = {
      name: `${name}.bn`,
      channels,
      gammaOff: off(`${name}.bn.weight`),
      betaOff: off(`${name}.bn.bias`),
      runningOff: runningFloats,
      statsOff: statsFloats,
    };
    runningFloats += 2 * channels;
    statsFloats += NORM_STAT_ROWS * channels;
    return n;
  };
  const conv = (name: string, cin: number, cout: number, k: number, stride: number, h: number): ConvShape => ({
    name,
    cin,
    cout,
    k,
    stride,
    h,
    ...convGeometry(h, k, stride),
    wOff: off(`${name}.conv.weight`),
  });

  // Topology, in the engine's order of batch norms (their running buffers are created in that order).
  const blocks: Block[] = [];
  let channels = STEM.embedding + STEM.hand;
  let h = 9;
  shape.blocks.forEach((count, stageIndex) => {
    const w = shape.widths[stageIndex]!;
    for (let i = 0; i < count; i++) {
      const stride = i === 0 ? STAGE_STRIDES[stageIndex]! : 1;
      const prefix = `layer${stageIndex + 1}.${i}`;
      const reduce = conv(`${prefix}.1`, channels, w, 1, 1, h);
      const spatial = conv(`${prefix}.2`, w, w, 3, stride, h);
      const expand = conv(`${prefix}.3`, w, w * EXPANSION, 1, 1, spatial.oh);
      const projected = stride !== 1 || channels !== w * EXPANSION;
      const shortcut = projected ? conv(`${prefix}.shortcut`, channels, w * EXPANSION, 1, stride, h) : null;
      const norms = {
        reduce: norm(`${prefix}.1`, w),
        spatial: norm(`${prefix}.2`, w),
        expand: norm(`${prefix}.3`, w * EXPANSION),
        shortcut: projected ? norm(`${prefix}.shortcut`, w * EXPANSION) : null,
      };
      blocks.push({ prefix, reduce, spatial, expand, shortcut, norms });
      channels = w * EXPANSION;
      h = spatial.oh;
    }
  });

  const d: Dispatch[] = [];
  const B = batch;
  const scaled = s.activations === 'f16';
  const act = (c: ConvShape) => B * c.oh * c.oh * c.cout;
  const split = { ...SPLIT_SIZES, ...s.split };
  const splitsFor = (c: ConvShape): number => {
    const [m, n] = [c.k * c.k * c.cin, c.cout];
    const edge = gemmTile(m, n);
    const tiles = Math.ceil(m / edge) * Math.ceil(n / edge);
    return Math.max(1, Math.min(32, Math.ceil(256 / tiles), Math.floor((B * c.oh * c.oh) / split.minSplitRows)));
  };
  const filterGrad = (c: ConvShape, x: Activation, dz: string) => {
    const splits = splitsFor(c);
    const scratch = splits > 1 ? buf(`${c.name}.split`, splits * c.k * c.k * c.cin * c.cout) : '';
    d.push(...convFilterGrad(c, B, x, dz, splits, scratch));
  };

  // Inputs and stem.
  buf('ids', B * BOARD_SQUARES);
  buf('hands', B * HAND_KINDS);
  buf('x0', B * 81 * 64);
  d.push(
    stemForward(B, {
      embOff: off('embedding.weight'),
      handW: off('hand_projection.weight'),
      handB: off('hand_projection.bias'),
    }),
  );

  // Forward through the blocks. Each convolution writes its raw output z and the statistics lines of z; a tiny
  // dispatch turns those into its batch norm's statistics in S. Nothing applies the norms: each consumer reads
  // relu(bn(z) [+ residual]) as it loads z, and a block's output y is kept by the next block's first convolution
  // (1×1, stride 1, so it loads each element once) or by the pool.
  let x: Activation = { tensor: 'x0' };
  const inputs: string[] = [];
  const forward = (c: ConvShape, bn: NormShape, input: Activation): { z: string; sOff: number } => {
    const z = buf(`${c.name}.z`, act(c));
    const stats = buf(`${c.name}.stats`, convStatsFloats(c, B));
    const rows = B * c.oh * c.oh;
    d.push(convForward(c, B, input, z, stats), normFinish(bn, rows, gemmTile(rows, c.cout), stats));
    return { z, sOff: bn.statsOff };
  };
  for (const b of blocks) {
    const input: string = 'keep' in x && x.keep ? x.keep : 'x0';
    inputs.push(input);
    const n = b.norms;
    const a1 = forward(b.reduce, n.reduce!, x);
    const a2 = forward(b.spatial, n.spatial!, a1);
    const z3 = forward(b.expand, n.expand!, a2);
    const shortcut = b.shortcut ? forward(b.shortcut, n.shortcut!, { tensor: input }) : null;
    const residual = shortcut ?? { tensor: input };
    x = { ...z3, residual, keep: buf(`${b.prefix}.y`, act(b.expand)) };
  }
  const last = blocks.at(-1)!;
  const hw = last.expand.oh * last.expand.oh;
  buf('feat', B * channels);
  d.push(poolForward(B, hw, channels, x, 'feat'));
  const activation = (c: ConvShape, bn: NormShape): Activation => ({ z: `${c.name}.z`, sOff: bn.statsOff });

  // Heads, loss and the heads' backward, down to dfeat.
  const dense = (name: string, inputs: number, outputs: number): DenseShape => ({
    name,
    inputs,
    outputs,
    wOff: off(`${name}.weight`),
    bOff: off(`${name}.bias`),
  });
  buf('rowloss', B);
  buf('loss', 1);
  buf('dfeat', B * channels);
  const lossStart = () => d.length - 1;
  let phaseLoss = 0;
  if (s.stage === 3) {
    const policy = dense('policy_head', channels, MOVE_LABELS);
    const value = dense('value_head', channels, 1);
    buf('logits', B * MOVE_LABELS);
    buf('dlogits', B * MOVE_LABELS);
    buf('value', B);
    buf('dvalue', B);
    buf('targetA', B * MOVE_LABELS);
    buf('targetB', B);
    buf('dfeatValue', B * channels);
    d.push(denseForward(policy, B, 'feat', 'logits'), denseForward(value, B, 'feat', 'value'));
    d.push(stage3Loss(B, MOVE_LABELS, s.policyLossRatio, s.valueLossRatio));
    phaseLoss = lossStart();
    d.push(lossTotal(B));
    if (scaled) d.push(scaleLossGradients(B, MOVE_LABELS, true));
    d.push(denseParamGrad(policy, B, 'feat', 'dlogits'), denseParamGrad(value, B, 'feat', 'dvalue'));
    d.push(
      denseInputGrad(value, B, 'dvalue', 'dfeatValue'),
      denseInputGrad(policy, B, 'dlogits', 'dfeat', { addend: 'dfeatValue' }),
    );
  } else {
    const classes = s.stage === 1 ? BOARD_SQUARES : MOVE_LABELS;
    const settings: MultiLabelSettings =
      s.stage === 1 ? { posWeight: s.stage1PosWeight, gammaPos: 0, gammaNeg: 0, clip: 0 } : s.stage2;
    buf('logits', B * classes);
    buf('dlogits', B * classes);
    buf('targetA', B * classes);
    if (s.stage === 2 && s.stage2HiddenDim > 0) {
      const hidden = dense('legal_head.hidden', channels, s.stage2HiddenDim);
      const outLayer = dense('legal_head.out', s.stage2HiddenDim, MOVE_LABELS);
      buf('hiddenPre', B * s.stage2HiddenDim);
      buf('hidden', B * s.stage2HiddenDim);
      buf('dhiddenPre', B * s.stage2HiddenDim);
      d.push(denseForward(hidden, B, 'feat', 'hidden', 'hiddenPre'), denseForward(outLayer, B, 'hidden', 'logits'));
      d.push(multiLabelLoss(B, classes, settings));
      phaseLoss = lossStart();
      d.push(lossTotal(B));
      if (scaled) d.push(scaleLossGradients(B, classes, false));
      d.push(
        denseParamGrad(outLayer, B, 'hidden', 'dlogits'),
        denseInputGrad(outLayer, B, 'dlogits', 'dhiddenPre', { geluPre: 'hiddenPre' }),
      );
      d.push(denseParamGrad(hidden, B, 'feat', 'dhiddenPre'), denseInputGrad(hidden, B, 'dhiddenPre', 'dfeat'));
    } else {
      const head = dense(s.stage === 1 ? 'reachable_head' : 'legal_head', channels, classes);
      d.push(denseForward(head, B, 'feat', 'logits'), multiLabelLoss(B, classes, settings));
      phaseLoss = lossStart();
      d.push(lossTotal(B));
      if (scaled) d.push(scaleLossGradients(B, classes, false));
      d.push(denseParamGrad(head, B, 'feat', 'dlogits'), denseInputGrad(head, B, 'dlogits', 'dfeat'));
    }
  }

  const phaseBackward = phaseLoss + (scaled ? 3 : 2);
  // Backward through the blocks, last first.
  let dy = buf(`${last.prefix}.dy`, act(last.expand));
  d.push(poolBackward(B, hw, channels, 'dfeat', dy));
  for (let i = blocks.length - 1; i >= 0; i--) {
    const b = blocks[i]!;
    const n = b.norms;
    const input = inputs[i]!;
    const y = { y: `${b.prefix}.y` };
    const term = (c: ConvShape, bn: NormShape) => ({
      bn,
      z: `${c.name}.z`,
      bs: buf(`${c.name}.bs`, 2 * c.cout),
      dz: buf(`${c.name}.dz`, act(c)),
    });
    const gradSums = (c: ConvShape, bn: NormShape, dOut: string, mask: ReluMask, t: { z: string; bs: string }) => {
      const rows = B * c.oh * c.oh;
      const chunks = Math.ceil(rows / split.reduceChunkRows);
      const part = chunks > 1 ? buf(`${c.name}.sums`, chunks * 2 * c.cout) : '';
      d.push(...normGradSums(bn, rows, split.reduceChunkRows, dOut, mask, t.z, t.bs, part));
    };
    const t3 = term(b.expand, n.expand!);
    gradSums(b.expand, n.expand!, dy, y, t3);
    let skip: string;
    if (b.shortcut) {
      const ts = term(b.shortcut, n.shortcut!);
      gradSums(b.shortcut, n.shortcut!, dy, y, ts);
      d.push(normInputGrad(B * b.expand.oh * b.expand.oh, dy, y, t3, ts));
      filterGrad(b.shortcut, { tensor: input }, ts.dz);
      skip = buf(`${b.shortcut.name}.dx`, B * b.shortcut.h * b.shortcut.h * b.shortcut.cin);
      d.push(convInputGrad(b.shortcut, B, ts.dz, skip));
    } else {
      skip = buf(`${b.prefix}.skip`, act(b.expand));
      d.push(normInputGrad(B * b.expand.oh * b.expand.oh, dy, y, t3, { skip }));
    }
    filterGrad(b.expand, activation(b.spatial, n.spatial!), t3.dz);
    d.push(convInputGrad(b.expand, B, t3.dz, buf(`${b.prefix}.da2`, act(b.spatial))));
    // The inner norms' ReLU masks come from their own z (their outputs were never stored).
    const inner: [ConvShape, NormShape, string, Activation, string][] = [
      [b.spatial, n.spatial!, `${b.prefix}.da2`, activation(b.reduce, n.reduce!), `${b.prefix}.da1`],
      [b.reduce, n.reduce!, `${b.prefix}.da1`, { tensor: input }, i === 0 ? 'dx0' : `${blocks[i - 1]!.prefix}.dy`],
    ];
    for (const [c, bn, dOut, inp, dIn] of inner) {
      const t = term(c, bn);
      const rows = B * c.oh * c.oh;
      gradSums(c, bn, dOut, 'own', t);
      d.push(normInputGrad(rows, dOut, 'own', t));
      filterGrad(c, inp, t.dz);
      buf(dIn, B * c.h * c.h * c.cin);
      d.push(convInputGrad(c, B, t.dz, dIn, c === b.reduce ? skip : undefined));
    }
    dy = i === 0 ? 'dx0' : `${blocks[i - 1]!.prefix}.dy`;
  }

  // Stem backward: embedding rows, hand projection.
  buf('dhand', B * STEM.hand);
  const embeddingChunks = Math.ceil((B * BOARD_SQUARES) / split.embeddingChunkPositions);
  const embeddingPart = embeddingChunks > 1 ? buf('embedding.split', embeddingChunks * STEM.vocabulary * 32) : '';
  d.push(...embeddingGrad(B, off('embedding.weight'), STEM.vocabulary, embeddingChunks, embeddingPart), handGrad(B));
  d.push(denseParamGrad(dense('hand_projection', HAND_KINDS, STEM.hand), B, 'hands', 'dhand'));

  // Update.
  const phaseOptimizer = d.length;
  buf('hyper', 4);
  if (s.update.clip > 0 || scaled) {
    buf('normParts', NORM_PARTS);
    d.push(gradientNormParts(parameterFloats));
  }
  d.push(parameterUpdate(parameterFloats, s.update, scaled));
  if (scaled) {
    buf('scale', SCALE_FLOATS);
    d.push(updateLossScale({ growthInterval: s.scaleGrowthInterval }));
  }
  for (const name of ['P', 'G', 'M', 'D']) buffers.set(name, parameterFloats);
  if (s.update.optimizer === 'adamw') buffers.set('V', parameterFloats);
  buffers.set('R', runningFloats);
  buffers.set('S', statsFloats);
  const phaseStarts = { loss: phaseLoss, backward: phaseBackward, optimizer: phaseOptimizer };
  const precision = s.activations ?? 'f32';
  const dispatches = d.map((x) => activationType(x, precision));
  return {
    batch,
    buffers,
    halfBuffers: precision === 'f16' ? activationBuffers(d) : new Set(),
    dispatches,
    offsets,
    runningOffsets,
    parameterFloats,
    runningFloats,
    phaseStarts,
  };
}

/** Buffers bound as activations; one bound both ways would be read with the wrong element size, so it is refused. */
function activationBuffers(dispatches: readonly Dispatch[]): Set<string> {
  const act = new Set<string>();
  const plain = new Set<string>();
  for (const d of dispatches) for (const b of d.bindings) (isActivation(b) ? act : plain).add(b.buffer);
  const both = [...act].filter((b) => plain.has(b));
  if (both.length) throw new Error(`planned step: buffers bound as activations and as f32: ${both.join(', ')}`);
  return act;
}
