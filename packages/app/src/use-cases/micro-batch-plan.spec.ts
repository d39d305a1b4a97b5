import { type BackendInfo, heapSafeMicroBatch } from '@maou/bench-engine';
import { checkNetworkFits, explainHeapTrap, planMicroBatches } from './micro-batch-plan';
import { StepFailure } from './step-failure';

const wasm = (threads: number): BackendInfo => ({
  name: 'wasm',
  version: 'x',
  threads,
  device: 'cpu',
  notes: [],
  heapLimitBytes: 2 ** 32,
});

describe('micro-batches that fit the heap', () => {
  it('given the replicas share a batch, then only a share larger than the limit is micro-batched, with a note', () => {
    const limit = heapSafeMicroBatch({ preset: 'lite' }, 2 ** 32)!;
    expect(planMicroBatches({ preset: 'lite' }, 2 * limit, wasm(2))).toEqual({ microBatchSize: limit });
    const over = planMicroBatches({ preset: 'lite' }, 2 * limit + 2, wasm(2));
    expect(over.microBatchSize).toBe(limit);
    expect(over.note).toMatch(
      new RegExp(
        `batch ${2 * limit + 2} is ${limit + 1} rows per replica, more than fit a 4 GiB wasm heap: .*micro-batches of ${limit} rows`,
      ),
    );
    expect(
      planMicroBatches({ preset: 'lite' }, 100_000, { ...wasm(1), name: 'webgpu', heapLimitBytes: undefined }),
    ).toEqual({});
  });

  it('given a ViT, then the note says layer norm keeps the step the whole batch; a ResNet preset names batch norm', () => {
    const vit = planMicroBatches({ preset: 'vit' }, 4096, wasm(2));
    expect(vit.note).toMatch(/\(layer norm is per row: the same step as the whole batch\)$/);
    expect(planMicroBatches({ preset: 'resnet' }, 4096, wasm(2)).note).toMatch(
      /\(batch norm normalises each micro-batch\)$/,
    );
  });
});

describe('networks that cannot train here, refused before any work; heap traps explained', () => {
  it('given a ViT whose weights and optimiser state pass the heap, then the plan is refused naming flags and figures', () => {
    const plan = () => planMicroBatches({ preset: 'vit', vit: { numLayers: 1, mlpRatio: 1024 } }, 256, wasm(2));
    expect(plan).toThrow(StepFailure);
    expect(plan).toThrow(
      /^--model-architecture vit --vit-num-layers 1 --vit-mlp-ratio 1024: 539,300,793 parameters need 8\.0 GiB .* the wasm heap of each replica holds 4\.0 GiB/,
    );
    try {
      plan();
    } catch (e) {
      expect((e as StepFailure).error.kind).toBe('network-too-large');
    }
  });

  it('given a tensor past 2^32 values, then refused on a backend without a heap limit too', () => {
    const gpu = { ...wasm(1), name: 'webgpu', heapLimitBytes: undefined };
    expect(() => checkNetworkFits({ preset: 'vit', vit: { embedDim: 65_536, numHeads: 65_536 } }, gpu)).toThrow(
      /would hold 17,179,869,184 values, and a tensor holds at most 4,294,967,296/,
    );
  });

  it("given a replica's 'memory access out of bounds', then the message names the heap, the rows and what to change", () => {
    const trap = new StepFailure({
      kind: 'training-failed',
      message: 'data-parallel replica 1: memory access out of bounds',
    });
    const explained = explainHeapTrap(trap, { preset: 'vit' }, 256, wasm(2)) as StepFailure;
    expect(explained.error.kind).toBe('training-failed');
    expect(explained.message).toMatch(
      /^data-parallel replica 1: memory access out of bounds: the wasm heap of each replica \(4\.0 GiB\) most likely ran out, training \d+ row\(s\) at a time of --batch-size 256; lower --batch-size, give more --threads/,
    );
    const other = new Error('something else');
    expect(explainHeapTrap(other, { preset: 'vit' }, 256, wasm(2))).toBe(other);
  });
});
