import { BLOCK_REDUCE } from './block-reduce.cu';
import { DEVICE_MATH } from './device-math.cu';
import { ELEMENTWISE_KERNELS } from './elementwise.cu';
import { LOSS_KERNELS } from './loss.cu';
import { OPTIMIZER_KERNELS } from './optimizer.cu';
import { NETWORK_END_KERNELS } from './network-ends.cu';

/** One NVRTC program: its CUDA C and the kernels it defines. @public */
export interface CudaKernelModule {
  /** the program's name in NVRTC's messages */
  readonly name: string;
  readonly source: string;
  /** its `extern "C" __global__` functions, in source order */
  readonly kernels: readonly string[];
}

const kernelNames = (source: string): string[] =>
  [...source.matchAll(/extern "C" __global__ void (\w+)\(/g)].map((m) => m[1]!);

const program = (name: string, body: string): CudaKernelModule => {
  const source = `${DEVICE_MATH}\n${BLOCK_REDUCE}\n${body}`;
  return { name, source, kernels: kernelNames(body) };
};

/**
 * The cuda backend's own kernels, for what cuDNN and cuBLAS do not do in the planned step: elementwise work,
 * losses and the optimiser. Compiled once per process by NVRTC for the GPU's architecture.
 * @public
 */
export const CUDA_KERNEL_MODULES: readonly CudaKernelModule[] = [
  program('elementwise.cu', ELEMENTWISE_KERNELS),
  program('loss.cu', LOSS_KERNELS),
  program('optimizer.cu', OPTIMIZER_KERNELS),
  program('network-ends.cu', NETWORK_END_KERNELS),
];
