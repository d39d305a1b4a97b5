import { parserDefaults, plannedSettings } from '@maou/bench-use-cases/testing';
import { givenSettings } from '../benchmark-training/given-settings';
import { toCompareRequest } from '../benchmark-compare/to-compare-input';
import { toBenchmarkDataloaderInput } from './to-benchmark-dataloader-input';

// No --gpu in these flags, so no backend needs to be registered.
const defaults = parserDefaults([], 0);
const grid = {
  numBatches: 100,
  prefetchFactors: [2, 4],
  repeats: 3,
  noiseMargin: 0.1,
  consumptionSteps: 5,
  streaming: true,
};

describe('toBenchmarkDataloaderInput', () => {
  it('given bad grid and loader flags, then every one is named in one answer', () => {
    const r = toBenchmarkDataloaderInput(
      { ...grid, batchSize: 0, numBatches: 0, workers: [-1], prefetchFactors: [0], batchSizes: [1.5], noiseMargin: 1 },
      defaults,
      4,
    );
    expect(r.ok ? [] : r.error.map((i) => i.field)).toEqual([
      '--batch-size',
      '--num-batches',
      '--noise-margin',
      '--workers',
      '--prefetch-factors',
      '--batch-sizes',
    ]);
  });

  it('given no grid, then the workers stop at the usable cores and the batch sizes are --batch-size', () => {
    const args = { ...grid, batchSize: 64 };
    // the batch size as the resource plan decides it from the flags
    const r = toBenchmarkDataloaderInput(args, { ...defaults, ...plannedSettings(givenSettings(args)) }, 2);
    expect(
      r.ok && { workers: r.value.input.workers, batchSizes: r.value.input.batchSizes, stage: r.value.input.stage },
    ).toEqual({ workers: [0, 1, 2], batchSizes: [64], stage: 3 });
  });
});

describe('toCompareRequest', () => {
  it.each([0, 0.5, Number.NaN])('given --alpha %p, then it is refused by name', (alpha) => {
    const r = toCompareRequest({ a: 'a.json', b: 'b.json', alpha });
    expect(r.ok ? '' : r.error[0]!.field).toBe('--alpha');
  });

  it('given a level inside (0, 0.5), then the request', () => {
    expect(toCompareRequest({ a: 'a.json', b: 'b.json', alpha: 0.01 })).toEqual({
      ok: true,
      value: { a: 'a.json', b: 'b.json', alpha: 0.01 },
    });
  });
});
