import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ldCacheDirs } from '../../ld-cache';

/** A folder searched for NVIDIA's libraries and why it is searched. @public */
export interface SearchPlace {
  readonly dir: string;
  /** e.g. `python3's site-packages (nvidia-* wheels)`, `CUDA_HOME`, `LD_LIBRARY_PATH`, `system` */
  readonly source: string;
}

/** What the search starts from; `defaultCudaSearch` reads it from this machine. @public */
export interface CudaSearchInputs {
  readonly env: Readonly<Record<string, string | undefined>>;
  /** python3's site-packages folders, or why there are none (no python3) */
  readonly sitePackages: readonly string[] | { readonly error: string };
  /** the loader's usual folders and the ld.so cache's */
  readonly systemDirs: readonly string[];
}

/** The result: folders in search order, and notes on what could not be searched. @public */
export interface CudaSearchPlan {
  readonly places: readonly SearchPlace[];
  readonly notes: readonly string[];
}

const WHEELS = "python3's site-packages (nvidia-* wheels)";

const subdirs = (dir: string): string[] => {
  try {
    return fs
      .readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort();
  } catch {
    return [];
  }
};

/** `<prefix>/lib/python3.*\/site-packages` of a virtualenv or conda prefix. */
const prefixSitePackages = (prefix: string): string[] =>
  subdirs(path.join(prefix, 'lib'))
    .filter((d) => /^python3\.\d+$/.test(d))
    .map((d) => path.join(prefix, 'lib', d, 'site-packages'));

/**
 * Where NVIDIA's libraries are looked for, in order: the `nvidia-*` wheels (and torch/lib) in python3's site-packages
 * and in an active virtualenv or conda prefix, `CUDA_HOME` and `CUDA_PATH`, `LD_LIBRARY_PATH`, then the system's
 * folders. A folder appears once, under its first reason. `stubs` folders (link-time stand-ins of libcuda) are never
 * searched.
 * @public
 */
export function cudaSearchPlaces(inputs: CudaSearchInputs): CudaSearchPlan {
  const places: SearchPlace[] = [];
  const seen = new Set<string>();
  const add = (dir: string, source: string) => {
    const resolved = path.resolve(dir);
    if (seen.has(resolved) || resolved.split(path.sep).includes('stubs')) return;
    seen.add(resolved);
    places.push({ dir: resolved, source });
  };
  const notes: string[] = [];
  const sites = 'error' in inputs.sitePackages ? [] : [...inputs.sitePackages];
  if ('error' in inputs.sitePackages) notes.push(`the nvidia-* wheels were not searched: ${inputs.sitePackages.error}`);
  const env = inputs.env;
  for (const prefix of [env.VIRTUAL_ENV, env.CONDA_PREFIX]) if (prefix) sites.push(...prefixSitePackages(prefix));
  for (const site of sites) {
    for (const pkg of subdirs(path.join(site, 'nvidia'))) add(path.join(site, 'nvidia', pkg, 'lib'), WHEELS);
    add(path.join(site, 'torch', 'lib'), WHEELS);
  }
  if (env.CONDA_PREFIX) add(path.join(env.CONDA_PREFIX, 'lib'), 'CONDA_PREFIX');
  for (const name of ['CUDA_HOME', 'CUDA_PATH'] as const) {
    const home = env[name];
    if (!home) continue;
    for (const lib of ['lib64', 'lib', 'targets/x86_64-linux/lib', 'targets/sbsa-linux/lib'])
      add(path.join(home, lib), name);
  }
  for (const dir of (env.LD_LIBRARY_PATH ?? '').split(':').filter(Boolean)) add(dir, 'LD_LIBRARY_PATH');
  for (const dir of inputs.systemDirs) add(dir, 'system');
  return { places, notes };
}

/** The system folders: CUDA's and the driver's usual ones, the distribution's, and the ld.so cache's. @public */
export function systemLibraryDirs(): string[] {
  const dirs = [
    '/usr/local/cuda/lib64',
    '/usr/local/nvidia/lib64',
    '/usr/lib/x86_64-linux-gnu',
    '/lib/x86_64-linux-gnu',
    '/usr/lib/aarch64-linux-gnu',
    '/usr/lib64',
    '/usr/lib',
    '/usr/lib/wsl/lib',
  ];
  return [...dirs, ...ldCacheDirs(/^lib(cuda|cudnn|cublas|cublasLt|nvrtc)\.so/)];
}

/** python3's site-packages folders (site.getsitepackages, the user's, and sys.path's), or why not. @public */
export function pythonSitePackages(python = 'python3'): readonly string[] | { readonly error: string } {
  const script =
    'import site, sys\n' +
    "dirs = list(site.getsitepackages()) + [site.getusersitepackages()] + [p for p in sys.path if p.endswith(('site-packages', 'dist-packages'))]\n" +
    "print('\\n'.join(dirs))";
  try {
    const out = execFileSync(python, ['-c', script], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 10_000,
    });
    return out.split('\n').filter(Boolean);
  } catch (e) {
    return { error: `${python} did not answer (${(e as Error).message.split('\n')[0]})` };
  }
}

/** The search inputs of this machine. @public */
export function defaultCudaSearch(env: Readonly<Record<string, string | undefined>> = process.env): CudaSearchInputs {
  return { env, sitePackages: pythonSitePackages(), systemDirs: systemLibraryDirs() };
}
