import { createTrainer, type TfjsTrainer } from '@maou/bench-engine';
import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import { TRAINING } from '@maou/bench-testkit/compute';
import { planSettings } from './planned-trainer';
import { describeStep, flatParameters } from './step-description';

const settings = (preset: 'lite' | 'resnet', stage: 1 | 2 | 3, clip = 1) =>
  planSettings({
    stage,
    training: { ...TRAINING, preset, gradientClip: clip, stage2HiddenDim: 512 },
    totalSteps: 1,
    seed: 1,
  });

describe('planned WebGPU step description (no GPU needed)', () => {
  it.each(['lite', 'resnet'] as const)(
    '%s: every stage plans at most 300 dispatches per step at batch 256 and 1024',
    (preset) => {
      const counts = [1, 2, 3].flatMap((stage) =>
        [256, 1024].map((batch) => describeStep(settings(preset, stage as 1 | 2 | 3), batch).dispatches.length),
      );
      expect(counts.every((n) => n > 100 && n <= 300)).toBe(true);
    },
  );

  it('layers of one kind share a shader: the plans of both presets, all stages and three batch sizes need 60 shaders', () => {
    const codes = new Set<string>();
    for (const preset of ['lite', 'resnet'] as const)
      for (const stage of [1, 2, 3] as const)
        for (const batch of [4, 256, 1024]) {
          const d = describeStep(settings(preset, stage), batch);
          const own = new Set(d.dispatches.map((k) => k.code));
          // resnet Stage 1 at batch 4: 177 dispatches; with shapes and offsets spliced into the WGSL, 177 shaders
          expect(own.size).toBeLessThan(d.dispatches.length / 4);
          own.forEach((c) => codes.add(c));
        }
    expect(codes.size).toBeLessThanOrEqual(60);
  });

  it('every dispatch binds only buffers the plan allocates, and writes at least one', () => {
    const d = describeStep(settings('resnet', 3), 1024);
    const unknown = d.dispatches.flatMap((k) =>
      k.bindings.filter((b) => !d.buffers.has(b.buffer)).map((b) => `${k.label}: ${b.buffer}`),
    );
    expect(unknown).toEqual([]);
    expect(d.dispatches.filter((k) => !k.bindings.some((b) => b.write)).map((k) => k.label)).toEqual([]);
    // a buffer both read and written by one dispatch would be a WebGPU usage conflict
    const conflicts = d.dispatches
      .filter((k) => new Set(k.bindings.map((b) => b.buffer)).size !== k.bindings.length)
      .map((k) => k.label);
    expect(conflicts).toEqual([]);
  });

  it.each([
    ['lite', 3, 0],
    ['resnet', 1, 0],
    ['lite', 2, 16],
    ['lite', 2, 0],
  ] as const)(
    "%s Stage %i (hidden %i): the flat layout is the engine's parameter list",
    async (preset, stage, hidden) => {
      await tf.setBackend('cpu');
      const trainer = createTrainer({
        stage,
        training: { ...TRAINING, preset, stage2HiddenDim: hidden },
        totalSteps: 1,
        seed: 1,
      }) as TfjsTrainer;
      const engine = trainer.network.store.parameters.map((p) => ({
        name: p.name,
        size: p.variable.size,
        decay: p.decay,
      }));
      trainer.dispose();
      expect(flatParameters(preset, stage, hidden)).toEqual(engine);
      expect(engine.reduce((s, p) => s + p.size, 0)).toBe(
        describeStep(
          planSettings({ stage, training: { ...TRAINING, preset, stage2HiddenDim: hidden }, totalSteps: 1, seed: 1 }),
          2,
        ).parameterFloats,
      );
    },
  );
});
