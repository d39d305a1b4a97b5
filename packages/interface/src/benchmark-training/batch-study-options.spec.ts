import { toBatchStudy } from './batch-study-options';

const issues = (raw: Parameters<typeof toBatchStudy>[0]): string[] => {
  const r = toBatchStudy(raw);
  return r.ok ? [] : r.error.map((i) => `${i.field}: ${i.message}`);
};

describe('batch-study options', () => {
  it('given none of its flags, then no study', () => {
    expect(toBatchStudy({ batchSize: 64 })).toEqual({ ok: true, value: null });
  });

  it("accepts maou's comma form and separate values, sorted, for batch sizes; learning rates keep their order", () => {
    expect(toBatchStudy({ batchSizes: '256,64, 128', estimateCbs: true })).toEqual({
      ok: true,
      value: { sweep: { type: 'batch_size', values: [64, 128, 256] }, estimateCbs: true, findMaxBatch: false },
    });
    expect(toBatchStudy({ batchSizes: ['64', 128] })).toMatchObject({
      ok: true,
      value: { sweep: { values: [64, 128] } },
    });
    expect(toBatchStudy({ learningRates: ['0.01,0.001'] })).toMatchObject({
      ok: true,
      value: { sweep: { type: 'learning_rate', values: [0.01, 0.001] } },
    });
    expect(toBatchStudy({ findMaxBatch: true })).toEqual({
      ok: true,
      value: { sweep: null, estimateCbs: false, findMaxBatch: true },
    });
  });

  it('names the flag of every bad list, the exclusion and the CBS prerequisites', () => {
    expect(issues({ batchSizes: '64,x' })).toEqual([
      "--batch-sizes: 'x' is not one of the positive integers the list must hold (got '64,x')",
    ]);
    expect(issues({ batchSizes: '64,0.5' })[0]).toMatch(/^--batch-sizes: '0.5'/);
    expect(issues({ batchSizes: '64,,128' })[0]).toMatch(/^--batch-sizes: must be a comma-separated list/);
    expect(issues({ batchSizes: '64,64' })).toEqual(['--batch-sizes: lists 64 twice']);
    expect(issues({ learningRates: '0.1,-1' })[0]).toMatch(/^--learning-rates: '-1'/);
    expect(issues({ batchSizes: '64,128', learningRates: '0.1' })).toEqual([
      '--learning-rates: cannot be combined with --batch-sizes: a sweep varies one setting',
    ]);
    expect(issues({ estimateCbs: true })[0]).toMatch(/^--estimate-cbs: needs --batch-sizes/);
    expect(issues({ estimateCbs: true, batchSizes: '64' })).toEqual([
      '--estimate-cbs: needs at least two --batch-sizes, got 1',
    ]);
    expect(issues({ findMaxBatch: true, enableProfiling: true })[0]).toMatch(/^--enable-profiling:/);
    expect(issues({ findMaxBatch: true, findMaxBatchCap: 0 })).toEqual([
      '--find-max-batch-cap: must be an integer at least 1, got 0',
    ]);
    expect(issues({ findMaxBatchCap: 64 })).toEqual(['--find-max-batch-cap: only applies with --find-max-batch']);
    expect(toBatchStudy({ findMaxBatch: true, findMaxBatchCap: 64 })).toMatchObject({
      ok: true,
      value: { maxBatchCap: 64 },
    });
  });
});
