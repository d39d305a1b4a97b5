import { type BackendInfo, heapSafeMicroBatch } from '@maou/bench-engine';
import { planMicroBatches } from './micro-batch-plan';

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
