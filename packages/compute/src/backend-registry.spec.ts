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

  it('given a --gpu value, then exactly the backend it names selects it, cuda:N with its device index', () => {
    expect(['wasm', 'cpu', 'webgpu', 'tensorflow'].map(selected)).toEqual([
      ['wasm:0'],
      ['cpu:0'],
      ['webgpu:0'],
      ['tensorflow:0'],
    ]);
    expect(selected('cuda')).toEqual(['tensorflow-gpu:0']);
    expect(selected('cuda:3')).toEqual(['tensorflow-gpu:3']);
    // maou's --gpu never took the backend's own name; neither does ours
    expect(selected('tensorflow-gpu')).toEqual([]);
  });

  it('given no --gpu, then the host backends by priority are the CPU ones', () => {
    expect(registry.byPriority().map((b) => b.name)).toEqual(['tensorflow-gpu', 'webgpu', 'tensorflow', 'wasm', 'cpu']);
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
