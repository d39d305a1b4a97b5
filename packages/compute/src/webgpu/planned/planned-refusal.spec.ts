import { plannedStepRefusal } from './planned-trainer';
import { TRAINING } from '@maou/bench-testkit/compute';

// The planned step builds the ResNet presets with every parameter training: the token backbones and freezing are
// refused by name (the caller then says MAOU_WEBGPU_STEP=tfjs trains them on the tfjs path), never planned wrongly.
describe('what the planned WebGPU step refuses', () => {
  const options = (training: Partial<typeof TRAINING>) => ({
    stage: 3 as const,
    training: { ...TRAINING, ...training },
    totalSteps: 10,
    seed: 1,
  });

  it('given mlp-mixer or vit, then it names the architecture', () => {
    expect(plannedStepRefusal(options({ preset: 'vit' }))).toBe(
      '--model-architecture vit (the plan builds the ResNet presets)',
    );
    expect(plannedStepRefusal(options({ preset: 'mlp-mixer' }))).toMatch(/^--model-architecture mlp-mixer/);
  });

  it('given --freeze-backbone or --trainable-layers, then it names them; a plain resnet run is planned', () => {
    expect(plannedStepRefusal(options({ preset: 'resnet', freezeBackbone: true }))).toBe(
      '--freeze-backbone / --trainable-layers',
    );
    expect(plannedStepRefusal(options({ preset: 'lite', trainableLayers: 2 }))).toBe(
      '--freeze-backbone / --trainable-layers',
    );
    expect(plannedStepRefusal(options({ preset: 'resnet', trainableLayers: null }))).toBeNull();
  });

  it('given --adaptive-batch, then it names it, not the accumulation steps it starts with', () => {
    const adaptiveBatch = { minSteps: 2, maxSteps: 8, interval: 50, smoothing: 0.1, measurementInterval: 5 };
    expect(plannedStepRefusal(options({ preset: 'resnet', gradientAccumulationSteps: 2, adaptiveBatch }))).toBe(
      '--adaptive-batch (its accumulation steps change during the run)',
    );
  });
});
