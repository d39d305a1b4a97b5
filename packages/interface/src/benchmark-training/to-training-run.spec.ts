import { parserDefaults } from '@maou/bench-use-cases/testing';
import type { BackendChoice } from '@maou/bench-use-cases';
import { calibrationMode, toTrainingRun } from './to-training-run';

// No --gpu in these flags, so no backend needs to be registered.
const defaults = parserDefaults([], 0);
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
        fixed: { workers: 1, prefetchFactor: undefined },
        file: 'c.json',
      },
    });
  });

  describe('--find-max-batch and the backend --gpu names', () => {
    // Backends as compute's registry describes them (interface may not import it): wasm has a bounded heap, cpu none.
    const backend = (name: string, placement: BackendChoice['placement'], boundedHeap?: boolean): BackendChoice => ({
      name,
      usage: name === 'tensorflow-gpu' ? 'cuda:N' : name,
      help: '',
      placement,
      ...(boundedHeap === undefined ? {} : { boundedHeap }),
      selects: (v) => (v === name || (name === 'tensorflow-gpu' && v === 'cuda') ? 0 : null),
    });
    const registered = {
      ...defaults,
      backends: [backend('tensorflow-gpu', 'device'), backend('wasm', 'host', true), backend('cpu', 'host')],
    };
    const issues = (gpu: string | undefined): string[] => {
      const r = toTrainingRun({ ...given, findMaxBatch: true, ...(gpu === undefined ? {} : { gpu }) }, registered);
      return r.ok ? [] : r.error.map((i) => `${i.field}: ${i.message}`);
    };

    it('given --gpu cpu, then --find-max-batch is refused, naming both flags and the backends that can search', () => {
      expect(issues('cpu')).toEqual([
        '--find-max-batch: cannot run with --gpu cpu: the cpu backend has no memory limit to search against; use --gpu cuda:N or --gpu wasm',
      ]);
    });

    it('given a bounded heap, a GPU, no --gpu or auto, then the search is accepted (the started backend decides)', () => {
      expect([issues('wasm'), issues('cuda'), issues(undefined), issues('auto')]).toEqual([[], [], [], []]);
    });
  });
});
