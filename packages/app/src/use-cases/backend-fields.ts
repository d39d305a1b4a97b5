import type { EnvironmentInfo } from '@maou/bench-domain';
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
