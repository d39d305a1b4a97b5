import { NETWORK_PRESETS, STAGE_STRIDES, STEM } from '@maou/bench-engine';
import type { NetworkShape } from '@maou/bench-engine/contracts';
import { BOARD_SQUARES, HAND_KINDS, MOVE_LABELS, type ResNetPreset, type Stage } from '@maou/bench-domain';
import { type Activation } from './kernels';
import { planHead } from './step-heads';
import {
  planBlockBackward,
  planBlockForward,
  planPool,
  planPoolBackward,
  planStem,
  planStemBackward,
  planUpdate,
} from './step-layers';
import { planTopology, StepPlan } from './step-plan';
import { EXPANSION, type FlatParameter, type PlanSettings, type StepDescription } from './step-settings';
import { activationType, type Dispatch, isActivation } from './wgsl';

export {
  SPLIT_SIZES,
  type FlatParameter,
  type PlanSettings,
  type SplitSizes,
  type StepDescription,
} from './step-settings';

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
 * ordered list of dispatches over named buffers, each layer kind by its own planner (`step-layers.ts`, and
 * `step-heads.ts` by the stage's head). Nothing here touches the GPU, so the dispatch count of any preset and batch can
 * be computed anywhere; `materialize` turns the description into GPU objects.
 * @public
 */
export function describeStep(s: PlanSettings, batch: number): StepDescription {
  const shape = s.shape ?? NETWORK_PRESETS[s.preset];
  const p = new StepPlan(s, batch, flatParameters(s.preset, s.stage, s.stage2HiddenDim, shape));
  const { blocks, channels } = planTopology(p, shape);
  const last = blocks.at(-1)!;
  planStem(p);
  let x: Activation = { tensor: 'x0' };
  const inputs: string[] = [];
  for (const b of blocks) {
    const forward = planBlockForward(p, b, x);
    inputs.push(forward.input);
    x = forward.x;
  }
  planPool(p, last, channels, x);
  const phaseLoss = planHead(p, channels);
  // the loss dispatch, its total and (f16) the gradients' scaling belong to the loss phase
  const phaseBackward = phaseLoss + (p.scaled ? 3 : 2);
  let dy = planPoolBackward(p, last, channels);
  for (let i = blocks.length - 1; i >= 0; i--) {
    const below = i === 0 ? 'dx0' : `${blocks[i - 1]!.prefix}.dy`;
    planBlockBackward(p, blocks[i]!, inputs[i]!, dy, below);
    dy = below;
  }
  planStemBackward(p);
  const phaseOptimizer = p.dispatches.length;
  planUpdate(p);
  const precision = s.activations ?? 'f32';
  return {
    batch,
    buffers: p.buffers,
    halfBuffers: precision === 'f16' ? activationBuffers(p.dispatches) : new Set(),
    dispatches: p.dispatches.map((d) => activationType(d, precision)),
    offsets: p.offsets,
    runningOffsets: p.runningOffsets,
    parameterFloats: p.parameterFloats,
    runningFloats: p.runningFloats,
    phaseStarts: { loss: phaseLoss, backward: phaseBackward, optimizer: phaseOptimizer },
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
