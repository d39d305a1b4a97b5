import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import { createTrainer } from '@maou/bench-engine';
import { plannedStepTrainers, webgpuStepChoice } from './planned-step-factory';
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

describe('which WebGPU step `--gpu webgpu` runs', () => {
  it('given no MAOU_WEBGPU_STEP, then the planned step for the ResNet presets and the tfjs path for the token backbones', () => {
    expect(webgpuStepChoice({}, 'resnet')).toBe('planned');
    expect(webgpuStepChoice({}, 'lite')).toBe('planned');
    expect(webgpuStepChoice({}, 'vit')).toBe('tfjs');
    expect(webgpuStepChoice({}, 'mlp-mixer')).toBe('tfjs');
    expect(webgpuStepChoice({ MAOU_WEBGPU_STEP: 'planned' }, 'vit')).toBe('planned');
    expect(webgpuStepChoice({ MAOU_WEBGPU_STEP: 'tfjs' }, 'resnet')).toBe('tfjs');
    expect(() => webgpuStepChoice({ MAOU_WEBGPU_STEP: 'fast' }, 'vit')).toThrow(/MAOU_WEBGPU_STEP=fast/);
  });

  it('given a vit on webgpu, then the engine trainer runs and its backend step names the tfjs path and why', async () => {
    await tf.setBackend('cpu'); // the factory routes by the backend it is told ran; the trainer is the real one
    const previous = process.env.MAOU_WEBGPU_STEP;
    delete process.env.MAOU_WEBGPU_STEP;
    try {
      const backend = { name: 'webgpu', version: '4.22.0', threads: 1, device: 'lavapipe', notes: [] };
      const vit = { embedDim: 16, numLayers: 1, numHeads: 2 };
      const trainer = plannedStepTrainers(createTrainer)({
        stage: 3,
        training: { ...TRAINING, preset: 'vit', vit },
        totalSteps: 10,
        seed: 1,
        backend,
      });
      const summary = (trainer as unknown as { stepSummary: () => { kind: string; notes: string[] } }).stepSummary();
      trainer.dispose();
      expect(summary.kind).toMatch(/^webgpu tfjs path/);
      expect(summary.notes[0]).toMatch(
        /builds only the ResNet presets, so --model-architecture vit trains on the tfjs path/,
      );
    } finally {
      if (previous !== undefined) process.env.MAOU_WEBGPU_STEP = previous;
    }
  });
});
