import { candidateBackends, type BackendChoice } from '@maou/bench-use-cases';
import type { ComputeConfig, ValidationIssue } from '@maou/bench-domain';
import { parseDevice, take } from './choices';
import type { RawBenchmarkTrainingOptions as Raw } from './raw-options';

type Device = Pick<ComputeConfig, 'backend' | 'deviceIndex'>;

/** `--gpu` as the registered backends read it, and `--mixed-precision` checked against what it may start. */
export const resolveDevice = (raw: Raw, backends: readonly BackendChoice[], issues: ValidationIssue[]): Device => {
  const device = take<Device>(parseDevice(raw.gpu, backends), issues, { backend: 'auto', deviceIndex: 0 });
  const f16 = backends.filter((b) => b.mixedPrecision).map((b) => b.name);
  if (raw.mixedPrecision && !candidateBackends(device.backend, backends).every((b) => b.mixedPrecision))
    issues.push({
      field: '--mixed-precision',
      message: `needs --gpu ${f16.join(' or ') || '(no registered backend has it)'} (the backends with f16 activations; got ${raw.gpu === undefined ? 'no --gpu' : `--gpu ${raw.gpu}`}); maou's AMP is CUDA-only too`,
    });
  return device;
};

/** The compute block: the device, the resource plan's threads ('auto' without a plan), mixed precision if asked. */
export const resolveCompute = (raw: Raw, device: Device, threads: number | undefined): ComputeConfig => ({
  ...device,
  threads: threads ?? 'auto',
  ...(raw.mixedPrecision ? { mixedPrecision: true } : {}),
});
