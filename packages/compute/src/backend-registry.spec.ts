import { cpuBackendPlugin } from './backends/cpu/cpu-backend.plugin';
import { BackendRegistry } from './backend-registry';
import { createBackendRegistry } from './register-backends';

describe('the shipped backend registry', () => {
  const registry = createBackendRegistry();
  const selected = (value: string) =>
    registry.byPriority().flatMap((b) => {
      const index = b.selects(value);
      return index === null ? [] : [`${b.name}:${index}`];
    });

  it('given a --gpu value, then exactly the backend it names selects it, cuda[:N] and tensorflow-gpu[:N] with their device index', () => {
    expect(['wasm', 'cpu', 'webgpu', 'tensorflow'].map(selected)).toEqual([
      ['wasm:0'],
      ['cpu:0'],
      ['webgpu:0'],
      ['tensorflow:0'],
    ]);
    // maou's --gpu cuda:N is NVIDIA's libraries, as PyTorch runs on them; tfjs-node-gpu (CUDA 11.2) is named as such
    expect(selected('cuda')).toEqual(['cuda:0']);
    expect(selected('cuda:3')).toEqual(['cuda:3']);
    expect(selected('tensorflow-gpu')).toEqual(['tensorflow-gpu:0']);
    expect(selected('tensorflow-gpu:2')).toEqual(['tensorflow-gpu:2']);
    expect(selected('cuda:x')).toEqual([]);
  });

  it('given no --gpu, then the host backends by priority are the CPU ones', () => {
    expect(registry.byPriority().map((b) => b.name)).toEqual([
      'cuda',
      'tensorflow-gpu',
      'webgpu',
      'tensorflow',
      'wasm',
      'cpu',
    ]);
    expect(registry.hostByPriority().map((b) => b.name)).toEqual(['tensorflow', 'wasm', 'cpu']);
  });

  it('says which backends train data-parallel', () => {
    expect(
      registry
        .byPriority()
        .filter((b) => b.dataParallel)
        .map((b) => b.name),
    ).toEqual(['wasm']);
  });

  it('refuses a second plug-in under a name already taken', () => {
    expect(() => new BackendRegistry().register(cpuBackendPlugin).register({ ...cpuBackendPlugin })).toThrow(
      /backend 'cpu' is registered twice/,
    );
  });
});
