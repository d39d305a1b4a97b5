import { calibrationMode, toTrainingRun } from './to-training-run';

// No --gpu in these flags, so no backend needs to be registered.
const defaults = { workers: 0, sampleCacheDir: '/tmp/maou-sample', backends: [] };
// What yargs always hands over: the flags with a default.
const given = { stage: 3, streaming: true } as const;
const fieldsOf = (args: Parameters<typeof toTrainingRun>[0]): string[] => {
  const r = toTrainingRun(args, defaults);
  return r.ok ? [] : r.error.map((i) => i.field);
};

describe('toTrainingRun', () => {
  it('given the flags, then force wins, --calibrate calibrates, and the default is off', () => {
    expect(calibrationMode({ calibrate: false, forceCalibration: true })).toBe('force');
    expect(calibrationMode({ calibrate: true })).toBe('calibrate');
    expect(calibrationMode({})).toBe('off');
  });

  it('given bad config, study and budget flags at once, then every issue is named in one answer', () => {
    expect(fieldsOf({ ...given, batchSize: 0, batchSizes: ['x'], calibrationBudget: 0 })).toEqual([
      '--batch-size',
      '--batch-sizes',
      '--calibration-budget',
    ]);
  });

  it('given a study with any calibration flag, then that flag is refused', () => {
    expect(fieldsOf({ ...given, batchSizes: ['8,16'], calibrationFile: 'c.json' })).toEqual(['--calibration-file']);
    expect(fieldsOf({ ...given, findMaxBatch: true, forceCalibration: true })).toEqual(['--force-calibration']);
  });

  it('given a plain run, then the calibration request carries the budget in ms and the fixed loader flags', () => {
    const r = toTrainingRun(
      { ...given, calibrate: true, calibrationBudget: 2.5, dataloaderWorkers: 1, calibrationFile: 'c.json' },
      defaults,
    );
    expect(r.ok && { study: r.value.study, calibration: r.value.calibration }).toEqual({
      study: null,
      calibration: {
        mode: 'calibrate',
        budgetMs: 2500,
        fixed: { workers: 1, prefetchFactor: undefined, batchSize: undefined },
        file: 'c.json',
      },
    });
  });
});
