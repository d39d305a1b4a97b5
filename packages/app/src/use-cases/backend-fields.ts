import type { ComputeConfig, EnvironmentInfo, LaterDecision } from '@maou/bench-domain';
import type { BackendInfo } from '@maou/bench-engine/contracts';

/** What a report records about the started backend: the environment's backend fields, in one place for every use case. */
export const backendFields = (
  backend: BackendInfo,
): Pick<
  EnvironmentInfo,
  'backend' | 'backend_version' | 'threads' | 'device' | 'backend_notes' | 'backend_placement'
> => ({
  backend: backend.name,
  backend_version: backend.version,
  threads: backend.threads,
  device: backend.device,
  backend_notes: backend.notes,
  ...(backend.placement === undefined ? {} : { backend_placement: backend.placement }),
});

/**
 * The threads the started backend runs, as a decision over the plan's when they differ: a backend with a fixed count
 * (the JavaScript cpu backend, webgpu: 1) or its own pool (TensorFlow: 0) runs that, whatever was asked.
 */
export const backendThreadsDecision = (asked: ComputeConfig['threads'], backend: BackendInfo): LaterDecision[] =>
  asked === backend.threads
    ? []
    : [
        {
          setting: 'threads',
          value: backend.threads,
          origin: 'backend',
          reason:
            backend.threads === 0
              ? `the ${backend.name} backend manages its own threads (asked for ${asked})`
              : `the ${backend.name} backend runs ${backend.threads} thread(s) (asked for ${asked})`,
        },
      ];
