import { activationFloatsPerSample, heapSafeMicroBatch } from './heap-safe-micro-batch';

describe('heap-safe micro-batches', () => {
  it('given a bounded heap, then rows per pass scale with the heap and shrink with the network', () => {
    const lite = heapSafeMicroBatch({ preset: 'lite' }, 2 ** 32)!;
    expect(heapSafeMicroBatch({ preset: 'lite' }, 2 ** 31)).toBe(Math.floor(lite / 2));
    expect(heapSafeMicroBatch({ preset: 'resnet' }, 2 ** 32)).toBeLessThan(lite / 2);
    expect(heapSafeMicroBatch({ preset: 'lite' }, undefined)).toBeUndefined();
    // Rows × 4 bytes × the margin over the activations stay inside three quarters of the heap.
    expect(lite * 4 * 4 * activationFloatsPerSample({ preset: 'lite' })).toBeLessThanOrEqual(0.75 * 2 ** 32);
  });
});

describe('heap-safe micro-batches of the token backbones', () => {
  it('given a ViT, then checkpointing keeps fewer activations and a wider ViT more; the mixer is planned too', () => {
    const vit = activationFloatsPerSample({ preset: 'vit' });
    expect(activationFloatsPerSample({ preset: 'vit', gradientCheckpointing: true })).toBeLessThan(vit / 2);
    expect(activationFloatsPerSample({ preset: 'vit', vit: { embedDim: 1024 } })).toBeGreaterThan(vit);
    expect(heapSafeMicroBatch({ preset: 'mlp-mixer' }, 2 ** 32)).toBeGreaterThan(0);
  });
});
