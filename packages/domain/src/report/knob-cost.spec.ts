import { costedKnobs, summarizeKnobCost, withoutCostedKnobs } from './knob-cost';
import type { TrainingConfig } from '../config/benchmark-config';

const training = (over: Partial<TrainingConfig>): TrainingConfig => ({ preset: 'vit', ...over }) as TrainingConfig;

describe('knob cost', () => {
  it('given the knobs as typed, then they are named as flags, and the other side has every one off', () => {
    expect(costedKnobs(training({}))).toEqual([]);
    expect(costedKnobs(training({ trainableLayers: null, freezeBackbone: false }))).toEqual([]);
    expect(costedKnobs(training({ gradientCheckpointing: true, trainableLayers: 0 }))).toEqual([
      '--gradient-checkpointing',
      '--trainable-layers 0',
    ]);
    const off = withoutCostedKnobs(training({ gradientCheckpointing: true, freezeBackbone: true, trainableLayers: 2 }));
    expect(costedKnobs(off)).toEqual([]);
    expect(off.preset).toBe('vit');
  });

  it('given two timed steps a side, then it reports medians and with ÷ without − 1', () => {
    const k = summarizeKnobCost(
      ['--freeze-backbone'],
      'how',
      {
        setting: '--freeze-backbone',
        trainableParameters: 10,
        stepsMs: [30, 50],
        backwardMs: [1, 3],
        peakTensorBytes: 300,
      },
      {
        setting: 'none',
        trainableParameters: 100,
        stepsMs: [80, 90, 70],
        backwardMs: [40, 40, 50],
        peakTensorBytes: 600,
      },
    );
    // medians 40 / 80, 2 / 40, peaks 300 / 600
    expect(k.with).toEqual({
      setting: '--freeze-backbone',
      trainable_parameters: 10,
      step_ms: 40,
      backward_ms: 2,
      peak_tensor_bytes: 300,
    });
    expect(k.without.step_ms).toBe(80);
    expect(k.step_change).toBeCloseTo(-0.5, 12);
    expect(k.backward_change).toBeCloseTo(-0.95, 12);
    expect(k.peak_tensor_change).toBeCloseTo(-0.5, 12);
  });

  it('given a side without a peak figure or a zero, then that change is null, not a number', () => {
    const side = { setting: 'x', trainableParameters: 1, stepsMs: [1], backwardMs: [0], peakTensorBytes: null };
    const k = summarizeKnobCost(['--gradient-checkpointing'], 'how', side, {
      ...side,
      setting: 'none',
      peakTensorBytes: 5,
    });
    expect(k.peak_tensor_change).toBeNull();
    expect(k.backward_change).toBeNull();
    expect(k.step_change).toBe(0);
    expect(() => summarizeKnobCost([], 'how', { ...side, stepsMs: [] }, side)).toThrow(/each side needs a timed step/);
  });
});
