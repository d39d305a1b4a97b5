import { STEM } from '@maou/bench-engine';
import { BOARD_SQUARES, HAND_KINDS } from '@maou/bench-domain';
import {
  type Activation,
  convForward,
  convInputGrad,
  type ConvShape,
  convStatsFloats,
  denseParamGrad,
  embeddingGrad,
  gradientNormParts,
  handGrad,
  NORM_PARTS,
  normFinish,
  normGradSums,
  normInputGrad,
  type NormShape,
  parameterUpdate,
  poolBackward,
  poolForward,
  type ReluMask,
  stemForward,
} from './kernels';
import { SCALE_FLOATS, updateLossScale } from './loss-scaling';
import type { Block, StepPlan } from './step-plan';
import { gemmTile } from './wgsl';

// The step's layers other than the heads (step-heads.ts), one planner per kind and direction: the stem, a bottleneck
// block, the pool, and the parameter update.

/** The stem: embedding of the board ids and the hand projection, into x0. */
export function planStem(p: StepPlan): void {
  const B = p.batch;
  p.buf('ids', B * BOARD_SQUARES);
  p.buf('hands', B * HAND_KINDS);
  p.buf('x0', B * 81 * 64);
  p.push(
    stemForward(B, {
      embOff: p.off('embedding.weight'),
      handW: p.off('hand_projection.weight'),
      handB: p.off('hand_projection.bias'),
    }),
  );
}

/** A convolution writing its raw output z and the statistics lines of z, then its batch norm's statistics in S. */
const convNorm = (p: StepPlan, c: ConvShape, bn: NormShape, input: Activation): { z: string; sOff: number } => {
  const z = p.buf(`${c.name}.z`, p.act(c));
  const stats = p.buf(`${c.name}.stats`, convStatsFloats(c, p.batch));
  const rows = p.batch * c.oh * c.oh;
  p.push(convForward(c, p.batch, input, z, stats), normFinish(bn, rows, gemmTile(rows, c.cout), stats));
  return { z, sOff: bn.statsOff };
};

/**
 * A block forward. Nothing applies the norms: each consumer reads relu(bn(z) [+ residual]) as it loads z, and a
 * block's output y is kept by the next block's first convolution (1×1, stride 1, so it loads each element once) or
 * by the pool. Returns the block's output and the tensor its input was kept in.
 */
export function planBlockForward(p: StepPlan, b: Block, x: Activation): { x: Activation; input: string } {
  const input: string = 'keep' in x && x.keep ? x.keep : 'x0';
  const n = b.norms;
  const a1 = convNorm(p, b.reduce, n.reduce!, x);
  const a2 = convNorm(p, b.spatial, n.spatial!, a1);
  const z3 = convNorm(p, b.expand, n.expand!, a2);
  const shortcut = b.shortcut ? convNorm(p, b.shortcut, n.shortcut!, { tensor: input }) : null;
  const residual = shortcut ?? { tensor: input };
  return { x: { ...z3, residual, keep: p.buf(`${b.prefix}.y`, p.act(b.expand)) }, input };
}

/** The global average pool of the last block's output into feat. */
export function planPool(p: StepPlan, last: Block, channels: number, x: Activation): void {
  p.buf('feat', p.batch * channels);
  p.push(poolForward(p.batch, last.expand.oh * last.expand.oh, channels, x, 'feat'));
}

/** The pool's backward, from dfeat into the last block's dy. */
export function planPoolBackward(p: StepPlan, last: Block, channels: number): string {
  const dy = p.buf(`${last.prefix}.dy`, p.act(last.expand));
  p.push(poolBackward(p.batch, last.expand.oh * last.expand.oh, channels, 'dfeat', dy));
  return dy;
}

const activation = (c: ConvShape, bn: NormShape): Activation => ({ z: `${c.name}.z`, sOff: bn.statsOff });

/** A norm's backward terms: its z, the sums [Σg, Σg·x̂] and dz. */
const term = (p: StepPlan, c: ConvShape, bn: NormShape) => ({
  bn,
  z: `${c.name}.z`,
  bs: p.buf(`${c.name}.bs`, 2 * c.cout),
  dz: p.buf(`${c.name}.dz`, p.act(c)),
});

const gradSums = (
  p: StepPlan,
  c: ConvShape,
  bn: NormShape,
  dOut: string,
  mask: ReluMask,
  t: { z: string; bs: string },
) => {
  const rows = p.batch * c.oh * c.oh;
  const chunks = Math.ceil(rows / p.split.reduceChunkRows);
  const part = chunks > 1 ? p.buf(`${c.name}.sums`, chunks * 2 * c.cout) : '';
  p.push(...normGradSums(bn, rows, p.split.reduceChunkRows, dOut, mask, t.z, t.bs, part));
};

/**
 * A block backward from its output's gradient dy down to `below` (the gradient of its input: the previous block's
 * dy, or dx0), with the input it was given in the forward.
 */
export function planBlockBackward(p: StepPlan, b: Block, input: string, dy: string, below: string): void {
  const B = p.batch;
  const n = b.norms;
  const y = { y: `${b.prefix}.y` };
  const t3 = term(p, b.expand, n.expand!);
  gradSums(p, b.expand, n.expand!, dy, y, t3);
  let skip: string;
  if (b.shortcut) {
    const ts = term(p, b.shortcut, n.shortcut!);
    gradSums(p, b.shortcut, n.shortcut!, dy, y, ts);
    p.push(normInputGrad(B * b.expand.oh * b.expand.oh, dy, y, t3, ts));
    p.filterGrad(b.shortcut, { tensor: input }, ts.dz);
    skip = p.buf(`${b.shortcut.name}.dx`, B * b.shortcut.h * b.shortcut.h * b.shortcut.cin);
    p.push(convInputGrad(b.shortcut, B, ts.dz, skip));
  } else {
    skip = p.buf(`${b.prefix}.skip`, p.act(b.expand));
    p.push(normInputGrad(B * b.expand.oh * b.expand.oh, dy, y, t3, { skip }));
  }
  p.filterGrad(b.expand, activation(b.spatial, n.spatial!), t3.dz);
  p.push(convInputGrad(b.expand, B, t3.dz, p.buf(`${b.prefix}.da2`, p.act(b.spatial))));
  // The inner norms' ReLU masks come from their own z (their outputs were never stored).
  const inner: [ConvShape, NormShape, string, Activation, string][] = [
    [b.spatial, n.spatial!, `${b.prefix}.da2`, activation(b.reduce, n.reduce!), `${b.prefix}.da1`],
    [b.reduce, n.reduce!, `${b.prefix}.da1`, { tensor: input }, below],
  ];
  for (const [c, bn, dOut, inp, dIn] of inner) {
    const t = term(p, c, bn);
    gradSums(p, c, bn, dOut, 'own', t);
    p.push(normInputGrad(B * c.oh * c.oh, dOut, 'own', t));
    p.filterGrad(c, inp, t.dz);
    p.buf(dIn, B * c.h * c.h * c.cin);
    p.push(convInputGrad(c, B, t.dz, dIn, c === b.reduce ? skip : undefined));
  }
}

/** The stem backward: the embedding rows' gradient (chunked over board positions) and the hand projection's. */
export function planStemBackward(p: StepPlan): void {
  const B = p.batch;
  p.buf('dhand', B * STEM.hand);
  const chunks = Math.ceil((B * BOARD_SQUARES) / p.split.embeddingChunkPositions);
  const part = chunks > 1 ? p.buf('embedding.split', chunks * STEM.vocabulary * 32) : '';
  p.push(...embeddingGrad(B, p.off('embedding.weight'), STEM.vocabulary, chunks, part), handGrad(B));
  p.push(denseParamGrad(p.dense('hand_projection', HAND_KINDS, STEM.hand), B, 'hands', 'dhand'));
}

/** The update: the gradient norm (clipping, or f16's overflow check), the optimiser, the loss scale. */
export function planUpdate(p: StepPlan): void {
  const { update, scaleGrowthInterval } = p.settings;
  p.buf('hyper', 4);
  if (update.clip > 0 || p.scaled) {
    p.buf('normParts', NORM_PARTS);
    p.push(gradientNormParts(p.parameterFloats));
  }
  p.push(parameterUpdate(p.parameterFloats, update, p.scaled));
  if (p.scaled) {
    p.buf('scale', SCALE_FLOATS);
    p.push(updateLossScale({ growthInterval: scaleGrowthInterval }));
  }
  for (const name of ['P', 'G', 'M', 'D']) p.buffers.set(name, p.parameterFloats);
  if (update.optimizer === 'adamw') p.buffers.set('V', p.parameterFloats);
  p.buffers.set('R', p.runningFloats);
  p.buffers.set('S', p.statsFloats);
}
