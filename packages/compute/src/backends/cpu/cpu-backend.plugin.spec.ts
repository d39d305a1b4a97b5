import * as tf from '@tensorflow/tfjs-core';
import { cpuBackendPlugin } from './cpu-backend.plugin';

describe('cpuBackendPlugin', () => {
  it('given a started cpu backend, then its first tensor prints no tfjs banner', async () => {
    const warned: string[] = [];
    const warn = jest.spyOn(console, 'warn').mockImplementation((...a: unknown[]) => void warned.push(a.join(' ')));
    try {
      const started = await cpuBackendPlugin.start({} as never);
      expect(started.ok && started.value.name).toBe('cpu');
      tf.tensor1d([1, 2, 3]).dispose();
    } finally {
      warn.mockRestore();
    }
    expect(warned).toEqual([]);
  });
});
