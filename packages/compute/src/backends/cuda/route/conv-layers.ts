import { type ResNetPreset } from '@maou/bench-domain';
import { describeStep, type StepDescription } from '../../webgpu/planned/step-description';
import { kernelKind } from '../../webgpu/planned/roofline';

/** One convolution of the planned step as cuDNN takes it: NHWC input batch×h×h×cin, k×k filters, `pad` each side. @public */
export interface ConvLayer {
  readonly batch: number;
  readonly h: number;
  readonly cin: number;
  readonly cout: number;
  readonly k: number;
  readonly stride: number;
  readonly pad: number;
  readonly oh: number;
}

/** A distinct convolution shape and the layers that have it. @public */
export interface ConvShapeCount extends ConvLayer {
  /** e.g. `layer1.0.1`, in the step's order */
  readonly layers: readonly string[];
}

/**
 * The convolutions of a planned step, read off its forward dispatches (their uniforms carry the layer's shape), by
 * shape: what cuDNN's forward, data-gradient and filter-gradient calls would run for that step, each shape once.
 * @public
 */
export function convShapes(step: StepDescription): ConvShapeCount[] {
  const byShape = new Map<string, { layer: ConvLayer; layers: string[] }>();
  for (const d of step.dispatches) {
    if (kernelKind(d.label) !== 'conv forward') continue;
    const u = Object.fromEntries(d.uniforms.map((x) => [x.name, x.value]));
    const layer: ConvLayer = {
      batch: u.NB!,
      h: u.H!,
      cin: u.CI!,
      cout: u.CO!,
      k: u.KS!,
      stride: u.S!,
      pad: u.PAD!,
      oh: u.OH!,
    };
    const key = JSON.stringify(layer);
    const entry = byShape.get(key) ?? { layer, layers: [] };
    entry.layers.push(d.label.replace(/ conv$/, ''));
    byShape.set(key, entry);
  }
  return [...byShape.values()].map((e) => ({ ...e.layer, layers: e.layers }));
}

/** The convolution shapes of a preset's Stage 3 step at `batch` (the stage and optimiser do not change them). @public */
export function presetConvShapes(preset: ResNetPreset, batch: number): ConvShapeCount[] {
  return convShapes(
    describeStep(
      {
        preset,
        stage: 3,
        stage2HiddenDim: 0,
        policyLossRatio: 1,
        valueLossRatio: 1,
        stage1PosWeight: 1,
        stage2: { posWeight: 1, gammaPos: 0, gammaNeg: 0, clip: 0 },
        update: { optimizer: 'adamw', beta1: 0.9, beta2: 0.999, eps: 1e-8, weightDecay: 0.01, momentum: 0, clip: 0 },
      },
      batch,
    ),
  );
}

/** FLOPs of one pass (forward, data gradient or filter gradient: the same multiply-adds) of a convolution. @public */
export const convFlops = (c: ConvLayer): number => 2 * c.batch * c.oh * c.oh * c.cout * c.k * c.k * c.cin;
