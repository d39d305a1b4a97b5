import { resolveGpu } from '@maou/bench-use-cases';
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

  it('given --gpu, then the one resolver names the backend, its device and the candidates in the order tried', () => {
    const resolved = (gpu: string | undefined, mixedPrecision = false) => {
      const r = resolveGpu(gpu, registry.byPriority(), mixedPrecision);
      return r.ok
        ? `${r.value.backend}:${r.value.deviceIndex} ${r.value.candidates.map((b) => b.name).join(',')}`
        : r.error;
    };
    expect(resolved('CUDA:3')).toBe('cuda:3 cuda');
    expect(resolved('tensorflow-gpu:2')).toBe('tensorflow-gpu:2 tensorflow-gpu');
    expect([undefined, '', 'none'].map((g) => resolved(g))).toEqual(Array(3).fill('host:0 tensorflow,wasm,cpu'));
    expect(resolved('auto')).toBe('auto:0 cuda,tensorflow-gpu,webgpu,tensorflow,wasm,cpu');
    expect(resolved('tpu')).toEqual({
      field: '--gpu',
      message: "unknown device 'tpu'; use cuda[:N], tensorflow-gpu[:N], webgpu, tensorflow, wasm, cpu, auto",
    });
    // --mixed-precision: every backend the run may start must have f16 activations (only webgpu's planned step does)
    expect(resolved('webgpu', true)).toBe('webgpu:0 webgpu');
    expect(resolved(undefined, true)).toEqual({
      field: '--mixed-precision',
      message: "needs --gpu webgpu (the backends with f16 activations; got no --gpu); maou's AMP is CUDA-only too",
    });
    expect(resolved('cuda:1', true)).toMatchObject({ message: expect.stringContaining('got --gpu cuda)') });
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
    const host = resolveGpu(undefined, registry.byPriority());
    expect(host.ok && host.value.candidates.map((b) => b.name)).toEqual(['tensorflow', 'wasm', 'cpu']);
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
