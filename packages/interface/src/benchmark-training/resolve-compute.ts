import { resolveGpu, type BackendChoice } from '@maou/bench-use-cases';
import type { ComputeConfig, ValidationIssue } from '@maou/bench-domain';
import type { RawBenchmarkTrainingOptions as Raw } from './raw-options';

type Device = Pick<ComputeConfig, 'backend' | 'deviceIndex'>;

/** `--gpu` as the use cases' `resolveGpu` reads it, which also checks `--mixed-precision` against what it may start. */
export const resolveDevice = (raw: Raw, backends: readonly BackendChoice[], issues: ValidationIssue[]): Device => {
  const gpu = resolveGpu(raw.gpu, backends, raw.mixedPrecision === true);
  if (gpu.ok) return { backend: gpu.value.backend, deviceIndex: gpu.value.deviceIndex };
  issues.push(gpu.error);
  return { backend: 'auto', deviceIndex: 0 };
};

/** The compute block: the device, the resource plan's threads ('auto' without a plan), mixed precision if asked. */
export const resolveCompute = (raw: Raw, device: Device, threads: number | undefined): ComputeConfig => ({
  ...device,
  threads: threads ?? 'auto',
  ...(raw.mixedPrecision ? { mixedPrecision: true } : {}),
});
