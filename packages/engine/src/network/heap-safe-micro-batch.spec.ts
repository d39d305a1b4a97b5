import { activationFloatsPerSample, heapSafeMicroBatch } from './heap-safe-micro-batch';

describe('heap-safe micro-batches', () => {
  it('given a bounded heap, then rows per pass scale with the heap and shrink with the network', () => {
    const lite = heapSafeMicroBatch('lite', 2 ** 32)!;
    expect(heapSafeMicroBatch('lite', 2 ** 31)).toBe(Math.floor(lite / 2));
    expect(heapSafeMicroBatch('resnet', 2 ** 32)).toBeLessThan(lite / 2);
    expect(heapSafeMicroBatch('lite', undefined)).toBeUndefined();
    // Rows × 4 bytes × the margin over the activations stay inside three quarters of the heap.
    expect(lite * 4 * 4 * activationFloatsPerSample('lite')).toBeLessThanOrEqual(0.75 * 2 ** 32);
  });
});
