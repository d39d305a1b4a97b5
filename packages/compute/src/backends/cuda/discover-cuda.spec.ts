import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { useNvrtc } from '@maou/bench-testkit/compute';
import { discoverCuda } from './discover-cuda';
import { findCudaLibraries } from './find-libraries';
import { readLibraryVersion } from './library-versions';
import { cudaSearchPlaces, type CudaSearchInputs } from './search-places';

/** A fake tree: paths relative to its root, a folder where the path ends in `/`, else a file that is no library. */
function tree(files: readonly string[]): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'maou-cuda-'));
  for (const f of files) {
    const full = path.join(root, f);
    fs.mkdirSync(f.endsWith('/') ? full : path.dirname(full), { recursive: true });
    if (!f.endsWith('/')) fs.writeFileSync(full, 'not a shared library');
  }
  return root;
}

const inputs = (o: Partial<CudaSearchInputs> = {}): CudaSearchInputs => ({
  env: {},
  sitePackages: [],
  systemDirs: [],
  ...o,
  ...(o.env ? { env: o.env } : {}),
});

describe('cuda library search', () => {
  it('given wheels, a virtualenv, CUDA_HOME, LD_LIBRARY_PATH and system folders, then that order, each folder once, stubs never', () => {
    const root = tree([
      'site/nvidia/cudnn/lib/',
      'site/nvidia/cu13/lib/',
      'site/torch/lib/',
      'venv/lib/python3.12/site-packages/nvidia/cublas/lib/',
      'cuda/lib64/stubs/',
    ]);
    const r = (p: string) => path.join(root, p);
    const plan = cudaSearchPlaces(
      inputs({
        sitePackages: [r('site')],
        env: {
          VIRTUAL_ENV: r('venv'),
          CUDA_HOME: r('cuda'),
          LD_LIBRARY_PATH: `${r('cuda/lib64/stubs')}:${r('ld')}:${r('site/nvidia/cu13/lib')}`,
        },
        systemDirs: [r('sys'), r('ld')],
      }),
    );
    expect(plan.places.map((p) => [path.relative(root, p.dir), p.source])).toEqual([
      ['site/nvidia/cu13/lib', "python3's site-packages (nvidia-* wheels)"],
      ['site/nvidia/cudnn/lib', "python3's site-packages (nvidia-* wheels)"],
      ['site/torch/lib', "python3's site-packages (nvidia-* wheels)"],
      ['venv/lib/python3.12/site-packages/nvidia/cublas/lib', "python3's site-packages (nvidia-* wheels)"],
      ['venv/lib/python3.12/site-packages/torch/lib', "python3's site-packages (nvidia-* wheels)"],
      ['cuda/lib64', 'CUDA_HOME'],
      ['cuda/lib', 'CUDA_HOME'],
      ['cuda/targets/x86_64-linux/lib', 'CUDA_HOME'],
      ['cuda/targets/sbsa-linux/lib', 'CUDA_HOME'],
      ['ld', 'LD_LIBRARY_PATH'],
      ['sys', 'system'],
    ]);
    expect(plan.notes).toEqual([]);
  });

  it('given no python3, then a note says the wheels were not searched', () => {
    const plan = cudaSearchPlaces(inputs({ sitePackages: { error: 'python3 did not answer (ENOENT)' } }));
    expect(plan.notes).toEqual(['the nvidia-* wheels were not searched: python3 did not answer (ENOENT)']);
  });

  it('takes each library from the first folder holding an accepted name, the newest major first, never an older major', () => {
    const root = tree([
      'a/libcudnn.so.8',
      'a/libcublas.so.12',
      'a/libcublas.so.13',
      'b/libcudnn.so.9',
      'b/libcublas.so.13',
      'b/libnvrtc.so.12',
      'c/libcuda.so',
    ]);
    const found = findCudaLibraries(['a', 'b', 'c', 'none'].map((d) => ({ dir: path.join(root, d), source: d })));
    expect(
      Object.fromEntries(found.libraries.map((l) => [l.library.id, l.path && path.relative(root, l.path)])),
    ).toEqual({
      driver: null,
      cudnn: 'b/libcudnn.so.9',
      cublasLt: null,
      cublas: 'a/libcublas.so.13',
      nvrtc: 'b/libnvrtc.so.12',
    });
    expect(found.places.map((p) => [p.source, p.exists, p.files])).toEqual([
      ['a', true, ['libcublas.so.12', 'libcublas.so.13', 'libcudnn.so.8']],
      ['b', true, ['libcublas.so.13', 'libcudnn.so.9', 'libnvrtc.so.12']],
      ['c', true, ['libcuda.so']],
      ['none', false, []],
    ]);
  });

  it('given libraries missing and files that are no libraries, then one error names each problem and every folder searched', () => {
    const root = tree(['site/nvidia/cudnn/lib/libcudnn.so.9', 'site/nvidia/cudnn/lib/libcudnn.so.8', 'cuda/lib64/']);
    const found = discoverCuda(
      inputs({
        sitePackages: [path.join(root, 'site')],
        env: { CUDA_HOME: path.join(root, 'cuda') },
      }),
    );
    if (found.ok) throw new Error('discovered libraries in a fake tree');
    const lines = found.error.message.split('\n').map((l) => l.replaceAll(root, '<root>'));
    expect(lines[0]).toBe(
      "NVIDIA's libraries for --gpu cuda are missing or unusable: the CUDA driver API, cuDNN, cuBLASLt, cuBLAS, NVRTC",
    );
    expect(lines).toContain("  - the CUDA driver API (libcuda.so.1): not found; it comes with NVIDIA's GPU driver");
    expect(lines).toContain(
      '  - cuBLAS (libcublas.so.13 or libcublas.so.12): not found; it comes with the pip wheel nvidia-cublas-cu12 or nvidia-cublas (installed with torch)',
    );
    expect(lines.find((l) => l.startsWith('  - cuDNN:'))).toMatch(
      /^ {2}- cuDNN: <root>\/site\/nvidia\/cudnn\/lib\/libcudnn\.so\.9 could not be used: .+/,
    );
    expect(lines.slice(lines.indexOf('searched, in this order:') + 1)).toEqual([
      "  - <root>/site/nvidia/cudnn/lib (python3's site-packages (nvidia-* wheels)): libcudnn.so.8, libcudnn.so.9",
      "  - <root>/site/torch/lib (python3's site-packages (nvidia-* wheels)): no such folder",
      '  - <root>/cuda/lib64 (CUDA_HOME): none of them',
      '  - <root>/cuda/lib (CUDA_HOME): no such folder',
      '  - <root>/cuda/targets/x86_64-linux/lib (CUDA_HOME): no such folder',
      '  - <root>/cuda/targets/sbsa-linux/lib (CUDA_HOME): no such folder',
    ]);
    expect(found.error.hint).toMatch(/pip install torch/);
  });
});

describe('cuda library versions, read from the real NVRTC', () => {
  const nvrtc = useNvrtc();
  const maybe = nvrtc.available ? it : it.skip;
  if (!nvrtc.available) it('is skipped', () => console.warn(`NVRTC specs skipped: ${nvrtc.reason}`));

  maybe("given pip's nvidia-cuda-nvrtc wheel, then NVRTC's own version is the wheel's", () => {
    const v = readLibraryVersion('nvrtc', nvrtc.library);
    const wheel = /^nvidia_cuda_nvrtc-(\d+)\.(\d+)\./.exec(nvrtc.wheel);
    expect(v).toEqual({ version: `${wheel?.[1]}.${wheel?.[2]}`, cuda: `${wheel?.[1]}.${wheel?.[2]}` });
  });

  maybe(
    'given NVRTC but no driver, then the error lists NVRTC as found with its version, the driver as missing',
    () => {
      const found = discoverCuda(inputs({ env: { LD_LIBRARY_PATH: nvrtc.libDir } }));
      if (found.ok) throw new Error('discovered a driver in the NVRTC folder');
      const v = readLibraryVersion('nvrtc', nvrtc.library).version;
      expect(found.error.message).toContain(`found:\n  - NVRTC ${v} (CUDA ${v}): ${nvrtc.library}\n`);
      expect(found.error.message).toContain('the CUDA driver API (libcuda.so.1): not found');
      expect(found.error.message).toMatch(new RegExp(`${nvrtc.libDir} \\(LD_LIBRARY_PATH\\): .*libnvrtc\\.so\\.\\d+`));
    },
  );
});
