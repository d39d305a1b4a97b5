import { BOARD_SQUARES, MOVE_LABELS } from '@maou/bench-domain';
import {
  denseForward,
  denseInputGrad,
  denseParamGrad,
  lossTotal,
  multiLabelLoss,
  type MultiLabelSettings,
  stage3Loss,
} from './kernels';
import { scaleLossGradients } from './loss-scaling';
import type { StepPlan } from './step-plan';
import type { PlanSettings } from './step-settings';

// The heads, their loss and their backward down to dfeat, one planner per kind of head. Each returns the index of
// its loss dispatch (where the loss phase starts).

type HeadPlanner = (p: StepPlan, channels: number) => number;

/** The loss's total and, in f16, the scaling of the logits' gradients; the loss dispatch's index. */
const lossTail = (p: StepPlan, classes: number, withValue: boolean): number => {
  const phaseLoss = p.dispatches.length - 1;
  p.push(lossTotal(p.batch));
  if (p.scaled) p.push(scaleLossGradients(p.batch, classes, withValue));
  return phaseLoss;
};

/** Stage 3: the policy and value heads, KL policy loss and value loss. */
const policyValue: HeadPlanner = (p, channels) => {
  const B = p.batch;
  const policy = p.dense('policy_head', channels, MOVE_LABELS);
  const value = p.dense('value_head', channels, 1);
  p.buf('logits', B * MOVE_LABELS);
  p.buf('dlogits', B * MOVE_LABELS);
  p.buf('value', B);
  p.buf('dvalue', B);
  p.buf('targetA', B * MOVE_LABELS);
  p.buf('targetB', B);
  p.buf('dfeatValue', B * channels);
  p.push(denseForward(policy, B, 'feat', 'logits'), denseForward(value, B, 'feat', 'value'));
  p.push(stage3Loss(B, MOVE_LABELS, p.settings.policyLossRatio, p.settings.valueLossRatio));
  const phaseLoss = lossTail(p, MOVE_LABELS, true);
  p.push(denseParamGrad(policy, B, 'feat', 'dlogits'), denseParamGrad(value, B, 'feat', 'dvalue'));
  p.push(
    denseInputGrad(value, B, 'dvalue', 'dfeatValue'),
    denseInputGrad(policy, B, 'dlogits', 'dfeat', { addend: 'dfeatValue' }),
  );
  return phaseLoss;
};

/** Stages 1 and 2: the classes, the multi-label loss's settings and the buffers every such head has. */
const multiLabelBuffers = (p: StepPlan): { classes: number; settings: MultiLabelSettings } => {
  const s = p.settings;
  const classes = s.stage === 1 ? BOARD_SQUARES : MOVE_LABELS;
  p.buf('logits', p.batch * classes);
  p.buf('dlogits', p.batch * classes);
  p.buf('targetA', p.batch * classes);
  const settings = s.stage === 1 ? { posWeight: s.stage1PosWeight, gammaPos: 0, gammaNeg: 0, clip: 0 } : s.stage2;
  return { classes, settings };
};

/** Stage 1's reachable head, or stage 2's legal head without a hidden layer: one dense layer. */
const multiLabel: HeadPlanner = (p, channels) => {
  const B = p.batch;
  const { classes, settings } = multiLabelBuffers(p);
  const head = p.dense(p.settings.stage === 1 ? 'reachable_head' : 'legal_head', channels, classes);
  p.push(denseForward(head, B, 'feat', 'logits'), multiLabelLoss(B, classes, settings));
  const phaseLoss = lossTail(p, classes, false);
  p.push(denseParamGrad(head, B, 'feat', 'dlogits'), denseInputGrad(head, B, 'dlogits', 'dfeat'));
  return phaseLoss;
};

/** Stage 2's legal head with a hidden GELU layer (`--stage2-hidden-dim`). */
const hiddenMultiLabel: HeadPlanner = (p, channels) => {
  const B = p.batch;
  const hiddenDim = p.settings.stage2HiddenDim;
  const { classes, settings } = multiLabelBuffers(p);
  const hidden = p.dense('legal_head.hidden', channels, hiddenDim);
  const outLayer = p.dense('legal_head.out', hiddenDim, MOVE_LABELS);
  p.buf('hiddenPre', B * hiddenDim);
  p.buf('hidden', B * hiddenDim);
  p.buf('dhiddenPre', B * hiddenDim);
  p.push(denseForward(hidden, B, 'feat', 'hidden', 'hiddenPre'), denseForward(outLayer, B, 'hidden', 'logits'));
  p.push(multiLabelLoss(B, classes, settings));
  const phaseLoss = lossTail(p, classes, false);
  p.push(
    denseParamGrad(outLayer, B, 'hidden', 'dlogits'),
    denseInputGrad(outLayer, B, 'dlogits', 'dhiddenPre', { geluPre: 'hiddenPre' }),
  );
  p.push(denseParamGrad(hidden, B, 'feat', 'dhiddenPre'), denseInputGrad(hidden, B, 'dhiddenPre', 'dfeat'));
  return phaseLoss;
};

const HEADS = { policyValue, multiLabel, hiddenMultiLabel } as const satisfies Record<string, HeadPlanner>;

const headOf = (s: PlanSettings): keyof typeof HEADS =>
  s.stage === 3 ? 'policyValue' : s.stage === 2 && s.stage2HiddenDim > 0 ? 'hiddenMultiLabel' : 'multiLabel';

/** The stage's head planned after the pool (into feat), down to dfeat; the index where the loss phase starts. */
export function planHead(p: StepPlan, channels: number): number {
  p.buf('rowloss', p.batch);
  p.buf('loss', 1);
  p.buf('dfeat', p.batch * channels);
  return HEADS[headOf(p.settings)](p, channels);
}
