import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createCudaBackendPlugin } from './cuda-backend.plugin';

describe('the cuda backend plug-in', () => {
  it('given --gpu cuda:1 where no folder holds the libraries, then it refuses before anything starts, naming the folders', async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'maou-cuda-none-'));
    const plugin = createCudaBackendPlugin(() => ({ env: {}, sitePackages: [], systemDirs: [empty] }));
    const started = await plugin.start({ backend: 'cuda', deviceIndex: 1, threads: 'auto' });
    if (started.ok) throw new Error('started without libraries');
    expect(started.error.backend).toBe('cuda');
    expect(started.error.message.split('\n')).toEqual([
      "NVIDIA's libraries for --gpu cuda are missing or unusable: the CUDA driver API, cuDNN, cuBLASLt, cuBLAS, NVRTC",
      "  - the CUDA driver API (libcuda.so.1): not found; it comes with NVIDIA's GPU driver",
      '  - cuDNN (libcudnn.so.9): not found; it comes with the pip wheel nvidia-cudnn-cu12 or -cu13 (installed with torch)',
      '  - cuBLASLt (libcublasLt.so.13 or libcublasLt.so.12): not found; it comes with the pip wheel nvidia-cublas-cu12 or nvidia-cublas (installed with torch)',
      '  - cuBLAS (libcublas.so.13 or libcublas.so.12): not found; it comes with the pip wheel nvidia-cublas-cu12 or nvidia-cublas (installed with torch)',
      '  - NVRTC (libnvrtc.so.13 or libnvrtc.so.12): not found; it comes with the pip wheel nvidia-cuda-nvrtc-cu12 or nvidia-cuda-nvrtc (installed with torch)',
      'searched, in this order:',
      `  - ${empty} (system): none of them`,
    ]);
    expect(started.error.hint).toMatch(/libcuda\.so\.1.*CUDA_HOME/);
  });

  it('is a device backend tried before tensorflow-gpu and webgpu', () => {
    const plugin = createCudaBackendPlugin();
    expect([plugin.placement, plugin.priority, plugin.usage]).toEqual(['device', 50, 'cuda[:N]']);
  });
});
