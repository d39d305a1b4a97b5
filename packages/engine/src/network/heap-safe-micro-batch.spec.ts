import '@tensorflow/tfjs-backend-cpu';
import * as tf from '@tensorflow/tfjs-core';
import { SeededRandom } from '../nn/seeded-random';
import {
  activationFloatsPerSample,
  heapSafeMicroBatch,
  networkMemoryRefusal,
  trainingMemory,
} from './heap-safe-micro-batch';
import { ShogiNetwork } from './shogi-network';

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

describe('the training-memory estimate and the refusal it gives before any work', () => {
  beforeAll(() => tf.setBackend('cpu'));

  // The estimate is analytic (the networks are not built to plan): it must count what the built network holds.
  it.each([
    [{ preset: 'lite' }],
    [{ preset: 'resnet' }],
    [{ preset: 'mlp-mixer' }],
    [{ preset: 'vit' }],
    [{ preset: 'vit', vit: { embedDim: 64, numLayers: 1, numHeads: 2, mlpRatio: 1.5 } }],
  ] as const)('given %j, then its parameters equal the built Stage 3 network', (choice) => {
    const net = new ShogiNetwork({
      ...choice,
      stage: 3,
      stage2HiddenDim: 0,
      stage2Dropout: 0,
      rng: new SeededRandom(1),
    });
    expect(trainingMemory(choice).parameters).toBe(net.parameterCount());
    net.dispose();
  });

  it('given the default networks on a 4 GiB heap, then none is refused and the micro-batches are as planned before', () => {
    for (const preset of ['lite', 'resnet', 'mlp-mixer', 'vit'] as const)
      expect(networkMemoryRefusal({ preset }, 2 ** 32, 'wasm heap')).toBeNull();
    // lite's and resnet's state is under a quarter of the heap: the planned share is unchanged
    expect(heapSafeMicroBatch({ preset: 'lite' }, 2 ** 32)).toBe(
      Math.floor((0.75 * 2 ** 32) / (16 * activationFloatsPerSample({ preset: 'lite' }))),
    );
  });

  it('given a ViT whose MLP is 1024× wide, then refused on a 4 GiB heap naming the flags, the parameters and the bytes', () => {
    const choice = { preset: 'vit', vit: { numLayers: 1, mlpRatio: 1024 } } as const;
    // by hand: stem 8,672 + projection 33,280 + positions 41,472 + one block (norms 2,048, qkv 787,968, proj 262,656,
    // MLP 268,959,744 + 268,435,968) + norm 1,024 + heads 767,961
    expect(trainingMemory(choice).parameters).toBe(539_300_793);
    expect(networkMemoryRefusal(choice, 2 ** 32, 'wasm heap of each replica')).toBe(
      "--model-architecture vit --vit-num-layers 1 --vit-mlp-ratio 1024: 539,300,793 parameters need 8.0 GiB for weights, gradients and AdamW's two moments, and one row's activations 1.9 GiB more; the wasm heap of each replica holds 4.0 GiB: lower --vit-embed-dim, --vit-mlp-ratio or --vit-num-layers",
    );
    // without a bounded heap (a GPU, native TensorFlow) the tensors themselves still fit in typed arrays
    expect(networkMemoryRefusal(choice, undefined)).toBeNull();
  });

  it('given a ViT 65,536 wide, then refused on any backend: its MLP weight is past the 2^32 values of a typed array', () => {
    const choice = { preset: 'vit', vit: { embedDim: 65_536, numHeads: 65_536 } } as const;
    expect(networkMemoryRefusal(choice, undefined)).toBe(
      '--model-architecture vit --vit-embed-dim 65536 --vit-num-heads 65536: an encoder MLP weight would hold 17,179,869,184 values, and a tensor holds at most 4,294,967,296 (2^32, one typed array): lower --vit-embed-dim, --vit-mlp-ratio or --vit-num-layers',
    );
  });
});
