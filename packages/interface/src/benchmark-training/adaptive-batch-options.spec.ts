import { backendChoice, parserDefaults } from '@maou/bench-use-cases/testing';
import { toBenchmarkConfig } from './to-benchmark-config';
import type { RawBenchmarkTrainingOptions } from './raw-options';

const defaults = parserDefaults([backendChoice('wasm')], 1);
const check = (raw: RawBenchmarkTrainingOptions) => toBenchmarkConfig(raw, defaults);
const issuesOf = (raw: RawBenchmarkTrainingOptions): string[] => {
  const r = check(raw);
  return r.ok ? [] : r.error.map((i) => `${i.field}: ${i.message}`);
};

describe('--adaptive-batch and its knobs', () => {
  it("given --adaptive-batch alone, then maou's defaults reach training and accumulation starts at min steps", () => {
    const r = check({ adaptiveBatch: true, gradientAccumulationSteps: 4 });
    expect(r.ok && r.value.config.training).toMatchObject({
      adaptiveBatch: { minSteps: 2, maxSteps: 8, interval: 50, smoothing: 0.1, measurementInterval: 5 },
      gradientAccumulationSteps: 2,
    });
    expect(r.ok && r.value.warnings).toContain(
      '--gradient-accumulation-steps 4 is ignored with --adaptive-batch: the run starts at --adaptive-batch-min-steps 2, as maou does',
    );
  });

  it('given every knob, then each reaches the settings; without --adaptive-batch the config has none', () => {
    const r = check({
      adaptiveBatch: true,
      adaptiveBatchMinSteps: 3,
      adaptiveBatchMaxSteps: 16,
      adaptiveBatchInterval: 4,
      adaptiveBatchSmoothing: 0.5,
      adaptiveBatchMeasurementInterval: 2,
    });
    expect(r.ok && r.value.config.training.adaptiveBatch).toEqual({
      minSteps: 3,
      maxSteps: 16,
      interval: 4,
      smoothing: 0.5,
      measurementInterval: 2,
    });
    const plain = check({ gradientAccumulationSteps: 4 });
    expect(plain.ok && plain.value.config.training.adaptiveBatch).toBeUndefined();
    expect(plain.ok && plain.value.config.training.gradientAccumulationSteps).toBe(4);
  });

  it("given values outside maou's click ranges, then each flag is named with click's wording", () => {
    expect(
      issuesOf({
        adaptiveBatch: true,
        adaptiveBatchMinSteps: 1,
        adaptiveBatchMaxSteps: 2.5,
        adaptiveBatchInterval: 0,
        adaptiveBatchSmoothing: 0.001,
        adaptiveBatchMeasurementInterval: 0,
      }),
    ).toEqual([
      '--adaptive-batch-min-steps: 1 is not in the range x>=2.',
      "--adaptive-batch-max-steps: '2.5' is not a valid integer.",
      '--adaptive-batch-interval: 0 is not in the range x>=1.',
      '--adaptive-batch-measurement-interval: 0 is not in the range x>=1.',
      '--adaptive-batch-smoothing: 0.001 is not in the range 0.01<=x<=1.0.',
    ]);
    expect(issuesOf({ adaptiveBatch: true, adaptiveBatchSmoothing: 1.5 })).toEqual([
      '--adaptive-batch-smoothing: 1.5 is not in the range 0.01<=x<=1.0.',
    ]);
  });

  it('given a measurement interval above the adjustment interval, or min = max steps, then a note as maou warns', () => {
    const r = check({
      adaptiveBatch: true,
      adaptiveBatchInterval: 4,
      adaptiveBatchMeasurementInterval: 5,
      adaptiveBatchMinSteps: 4,
      adaptiveBatchMaxSteps: 4,
    });
    expect(r.ok && r.value.warnings).toEqual(
      expect.arrayContaining([
        '--adaptive-batch-measurement-interval 5 > --adaptive-batch-interval 4: an adjustment window may hold no measurement',
        '--adaptive-batch-min-steps = --adaptive-batch-max-steps = 4: the noise scale is measured but the steps never change',
      ]),
    );
  });

  it("given min steps above max steps, then maou's BadParameter message", () => {
    expect(issuesOf({ adaptiveBatch: true, adaptiveBatchMinSteps: 16 })).toEqual([
      '--adaptive-batch-min-steps: --adaptive-batch-min-steps (16) must be <= --adaptive-batch-max-steps (8)',
    ]);
  });

  it('given a knob without --adaptive-batch, or --adaptive-batch outside Stage 3, then accepted with a note that it has no effect, as maou ignores them', () => {
    const knobs = check({ adaptiveBatchInterval: 10, adaptiveBatchSmoothing: 0.2, gradientAccumulationSteps: 4 });
    expect(knobs.ok && knobs.value.warnings).toContain(
      '--adaptive-batch-interval, --adaptive-batch-smoothing have no effect without --adaptive-batch (maou ignores them too)',
    );
    expect(knobs.ok && knobs.value.config.training).toMatchObject({ gradientAccumulationSteps: 4 });
    expect(knobs.ok && knobs.value.config.training.adaptiveBatch).toBeUndefined();
    // without --adaptive-batch maou never compares min and max; click still checks each range
    expect(check({ adaptiveBatchMinSteps: 16, adaptiveBatchMaxSteps: 4 }).ok).toBe(true);
    expect(issuesOf({ adaptiveBatchInterval: 0 })).toEqual(['--adaptive-batch-interval: 0 is not in the range x>=1.']);
    const stage1 = check({ adaptiveBatch: true, adaptiveBatchMaxSteps: 16, stage: 1, gradientAccumulationSteps: 2 });
    expect(stage1.ok && stage1.value.warnings).toContain(
      '--adaptive-batch (and --adaptive-batch-max-steps) has no effect at Stage 1: it applies to Stage 3 only, so this run trains with fixed accumulation (--gradient-accumulation-steps), as maou does',
    );
    expect(stage1.ok && stage1.value.config.training).toMatchObject({ gradientAccumulationSteps: 2 });
    expect(stage1.ok && stage1.value.config.training.adaptiveBatch).toBeUndefined();
    // maou builds the config (and compares min and max) before it knows the stage
    expect(issuesOf({ adaptiveBatch: true, adaptiveBatchMinSteps: 16, stage: 2 })).toEqual([
      '--adaptive-batch-min-steps: --adaptive-batch-min-steps (16) must be <= --adaptive-batch-max-steps (8)',
    ]);
  });

  it('given steps that are not powers of 2, then accepted with a note: the clip makes them reachable, as in maou', () => {
    const r = check({ adaptiveBatch: true, adaptiveBatchMaxSteps: 3 });
    expect(r.ok && r.value.config.training.adaptiveBatch).toMatchObject({ minSteps: 2, maxSteps: 3 });
    expect(r.ok && r.value.warnings).toContain(
      '--adaptive-batch-max-steps 3 is not a power of 2: the steps are rounded to a power of 2 and then clipped to it, so a run may use 3 steps (maou recommends powers of 2 and accepts this too)',
    );
    const pow2 = check({ adaptiveBatch: true, adaptiveBatchMaxSteps: 16 });
    expect(pow2.ok && pow2.value.warnings.filter((w) => w.includes('power of 2'))).toEqual([]);
  });
});
