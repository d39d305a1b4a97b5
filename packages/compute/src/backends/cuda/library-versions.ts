import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
// koffi's types are an ES module's; its `require` entry is what loads here
import type * as Koffi from 'koffi' with { 'resolution-mode': 'require' };
import { type CudaLibraryId } from './cuda-libraries';

/** A library's own word on its version, read by calling it (none of these calls needs a GPU). @public */
export interface LibraryVersion {
  /** `major.minor[.patch]` */
  readonly version: string;
  /** the CUDA major.minor it was built for (the driver: the newest it runs) */
  readonly cuda: string;
}

/** A library opened through koffi. @public */
export type NativeLibrary = ReturnType<typeof Koffi.load>;

const load = createRequire(__filename);
/** koffi, loaded on first use: its native module is needed only where a cuda backend starts. @public */
export const koffi = (): typeof Koffi => load('koffi') as typeof Koffi;

const opened = new Map<string, NativeLibrary>();

/** Opens a library once per process, by absolute path. @public */
export function openLibrary(file: string): NativeLibrary {
  let lib = opened.get(file);
  if (!lib) {
    lib = koffi().load(file);
    opened.set(file, lib);
  }
  return lib;
}

/** 12040 → 12.4 (the CUDA runtime's and driver's encoding). */
const cudaVersion = (v: number): string => `${Math.floor(v / 1000)}.${Math.floor((v % 1000) / 10)}`;
/** 92400 → 9.24.0 (cuDNN 9's and cuBLASLt's major·10⁴ + minor·10² + patch). */
const tenThousands = (v: number): string => `${Math.floor(v / 10000)}.${Math.floor((v % 10000) / 100)}.${v % 100}`;

const check = (what: string, status: number): void => {
  if (status !== 0) throw new Error(`${what} returned status ${status}`);
};

/**
 * NVRTC opens libnvrtc-builtins by its soname; loading it first from the same folder, by path, makes that name
 * resolve without LD_LIBRARY_PATH.
 */
function preloadNvrtcBuiltins(file: string): void {
  const dir = path.dirname(file);
  const major = /\.so\.(\d+)$/.exec(file)?.[1];
  const builtins = fs.readdirSync(dir).find((n) => n.startsWith(`libnvrtc-builtins.so.${major}.`));
  if (builtins) openLibrary(path.join(dir, builtins));
}

const READERS: Record<CudaLibraryId, (lib: NativeLibrary) => LibraryVersion> = {
  driver: (lib) => {
    const v = [0];
    check('cuDriverGetVersion', lib.func('int cuDriverGetVersion(_Out_ int *v)')(v) as number);
    return { version: cudaVersion(v[0]!), cuda: cudaVersion(v[0]!) };
  },
  cudnn: (lib) => ({
    version: tenThousands(Number(lib.func('size_t cudnnGetVersion()')())),
    cuda: cudaVersion(Number(lib.func('size_t cudnnGetCudartVersion()')())),
  }),
  cublasLt: (lib) => ({
    version: tenThousands(Number(lib.func('size_t cublasLtGetVersion()')())),
    cuda: cudaVersion(Number(lib.func('size_t cublasLtGetCudartVersion()')())),
  }),
  cublas: (lib) => {
    const property = lib.func('int cublasGetProperty(int type, _Out_ int *value)');
    const parts = [0, 1, 2].map((type) => {
      const v = [0];
      check('cublasGetProperty', property(type, v) as number);
      return v[0]!;
    });
    return { version: parts.join('.'), cuda: cudaVersion(Number(lib.func('size_t cublasGetCudartVersion()')())) };
  },
  nvrtc: (lib) => {
    const [major, minor] = [[0], [0]];
    check('nvrtcVersion', lib.func('int nvrtcVersion(_Out_ int *major, _Out_ int *minor)')(major, minor) as number);
    return { version: `${major[0]}.${minor[0]}`, cuda: `${major[0]}.${minor[0]}` };
  },
};

/** Opens `file` as library `id` and asks it its version; throws with the loader's or the library's reason. @public */
export function readLibraryVersion(id: CudaLibraryId, file: string): LibraryVersion {
  if (id === 'nvrtc') preloadNvrtcBuiltins(file);
  return READERS[id](openLibrary(file));
}
