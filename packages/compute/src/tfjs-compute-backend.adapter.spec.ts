import * as tf from '@tensorflow/tfjs-core';
import { err, type ComputeConfig } from '@maou/bench-domain';
import { BackendRegistry } from './backend-registry';
import { cpuBackendPlugin } from './backends/cpu/cpu-backend.plugin';
import { createBackendRegistry } from './register-backends';
import { BackendUnavailableError, TfjsComputeBackendAdapter } from './tfjs-compute-backend.adapter';

const config = (backend: ComputeConfig['backend']): ComputeConfig => ({ backend, deviceIndex: 1, threads: 'auto' });

describe('TfjsComputeBackendAdapter', () => {
  it('starts a backend by name and reports it', async () => {
    const info = await new TfjsComputeBackendAdapter(createBackendRegistry()).activate(config('cpu'));
    expect(info).toMatchObject({
      name: 'cpu',
      threads: 1,
      version: tf.version_core,
      placement: 'host',
      replicas: 1,
      fallback: true,
    });
    expect(tf.getBackend()).toBe('cpu');
  });

  it('reports the placement and the data-parallel replicas the registry gives the backend', async () => {
    const wasm = await new TfjsComputeBackendAdapter(createBackendRegistry()).activate({
      ...config('wasm'),
      threads: 2,
    });
    expect(wasm).toMatchObject({ name: 'wasm', threads: 2, placement: 'host', replicas: 2 });
    const single = new BackendRegistry().register({
      ...cpuBackendPlugin,
      name: 'gpu-like',
      placement: 'device',
      dataParallel: false,
      start: async (c) => cpuBackendPlugin.start(c),
    });
    expect(await new TfjsComputeBackendAdapter(single).activate(config('gpu-like'))).toMatchObject({
      placement: 'device',
      replicas: 1,
    });
  });

  it('auto takes the highest-priority plugin that starts and notes the ones it skipped', async () => {
    const registry = new BackendRegistry().register(cpuBackendPlugin).register({
      ...cpuBackendPlugin,
      name: 'broken',
      priority: 99,
      start: async () => err({ backend: 'broken', message: 'no device' }),
    });
    const info = await new TfjsComputeBackendAdapter(registry).activate(config('auto'));
    expect(info.name).toBe('cpu');
    expect(info.notes).toContain('skipped broken: no device');
    const wordy = registry.register({
      ...cpuBackendPlugin,
      name: 'wordy',
      priority: 98,
      start: async () => err({ backend: 'wordy', message: 'no library: libx\nsearched, in this order:\n  - /a' }),
    });
    const notes = (await new TfjsComputeBackendAdapter(wordy).activate(config('auto'))).notes;
    expect(notes.filter((n) => n.startsWith('skipped'))).toEqual([
      'skipped broken: no device',
      'skipped wordy: no library: libx',
    ]);
  });

  it('names the missing native package and how to install it', async () => {
    const adapter = new TfjsComputeBackendAdapter(createBackendRegistry());
    const failure = adapter.activate(config('tensorflow-gpu'));
    await expect(failure).rejects.toBeInstanceOf(BackendUnavailableError);
    await expect(failure).rejects.toThrow(
      /@tensorflow\/tfjs-node-gpu.*pnpm add @tensorflow\/tfjs-node-gpu.*CUDA 11\.2/,
    );
    await expect(adapter.activate(config('tensorflow'))).rejects.toThrow(/pnpm add @tensorflow\/tfjs-node@/);
  });

  it('given --mixed-precision on a backend without it (a configuration no flags checked, as a tune change makes), then it is refused before any backend starts', async () => {
    await tf.setBackend('cpu');
    let started = 0;
    const registry = createBackendRegistry();
    const counted = new BackendRegistry();
    for (const plugin of registry.byPriority())
      counted.register({ ...plugin, start: (c) => ((started += 1), plugin.start(c)) });
    const adapter = new TfjsComputeBackendAdapter(counted);
    for (const backend of ['wasm', 'host', 'auto'])
      await expect(adapter.activate({ ...config(backend), mixedPrecision: true })).rejects.toThrow(
        `--mixed-precision: needs --gpu webgpu (the backends with f16 activations; got ${backend === 'host' ? 'no --gpu' : `--gpu ${backend}`})`,
      );
    expect(started).toBe(0);
    expect(tf.getBackend()).toBe('cpu');
  });

  it('lists the known backends for an unknown name', async () => {
    const adapter = new TfjsComputeBackendAdapter(createBackendRegistry());
    await expect(adapter.activate(config('quantum'))).rejects.toThrow(
      /--gpu quantum: unknown backend; known: .*tensorflow-gpu.*wasm.*cpu/,
    );
  });
});
