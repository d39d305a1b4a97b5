/** The libraries the cuda backend opens at run time, by role. @public */
export type CudaLibraryId = 'driver' | 'cudnn' | 'cublasLt' | 'cublas' | 'nvrtc';

/** One NVIDIA library: the file names it answers to and where users get it. Nothing of NVIDIA's is shipped. @public */
export interface CudaLibrary {
  readonly id: CudaLibraryId;
  /** for messages: `cuDNN`, `the CUDA driver API`, ... */
  readonly title: string;
  /** file names it is loaded by, preferred first (the newest major) */
  readonly files: readonly string[];
  /** any file of this library, accepted or not (an older major is reported, not used) */
  readonly anyVersion: RegExp;
  /** the oldest version accepted, as `major.minor` */
  readonly minimum: string;
  /** where a PyTorch user has it */
  readonly source: string;
}

/**
 * In loading order: cuBLASLt before cuBLAS (which needs it by name). cuDNN 9 keeps the legacy convolution and
 * batch-norm calls; CUDA 12 and 13 are the toolkits of cuDNN 9's wheels (`nvidia-cudnn-cu12`, `-cu13`).
 * @public
 */
export const CUDA_LIBRARIES: readonly CudaLibrary[] = [
  {
    id: 'driver',
    title: 'the CUDA driver API',
    files: ['libcuda.so.1'],
    anyVersion: /^libcuda\.so(\.\d+)*$/,
    minimum: '12.0',
    source: "NVIDIA's GPU driver",
  },
  {
    id: 'cudnn',
    title: 'cuDNN',
    files: ['libcudnn.so.9'],
    anyVersion: /^libcudnn\.so(\.\d+)*$/,
    minimum: '9.0',
    source: 'the pip wheel nvidia-cudnn-cu12 or -cu13 (installed with torch)',
  },
  {
    id: 'cublasLt',
    title: 'cuBLASLt',
    files: ['libcublasLt.so.13', 'libcublasLt.so.12'],
    anyVersion: /^libcublasLt\.so(\.\d+)*$/,
    minimum: '12.0',
    source: 'the pip wheel nvidia-cublas-cu12 or nvidia-cublas (installed with torch)',
  },
  {
    id: 'cublas',
    title: 'cuBLAS',
    files: ['libcublas.so.13', 'libcublas.so.12'],
    anyVersion: /^libcublas\.so(\.\d+)*$/,
    minimum: '12.0',
    source: 'the pip wheel nvidia-cublas-cu12 or nvidia-cublas (installed with torch)',
  },
  {
    id: 'nvrtc',
    title: 'NVRTC',
    files: ['libnvrtc.so.13', 'libnvrtc.so.12'],
    anyVersion: /^libnvrtc\.so(\.\d+)*$/,
    minimum: '12.0',
    source: 'the pip wheel nvidia-cuda-nvrtc-cu12 or nvidia-cuda-nvrtc (installed with torch)',
  },
];

/** `a.b` ≥ `c.d`, numerically by part. @public */
export function versionAtLeast(version: string, minimum: string): boolean {
  const [a, b] = [version, minimum].map((v) => v.split('.').map(Number));
  for (let i = 0; i < Math.max(a!.length, b!.length); i++) {
    const d = (a![i] ?? 0) - (b![i] ?? 0);
    if (d !== 0) return d > 0;
  }
  return true;
}
