import type { EnvironmentInfo } from '@maou/bench-domain';

/** The machine and software facts a report records; backend fields come from the activated backend. @public */
export type HostEnvironment = Omit<
  EnvironmentInfo,
  'backend' | 'backend_version' | 'threads' | 'device' | 'backend_notes' | 'backend_placement'
>;

/** Describes where the run happens. @public */
export interface EnvironmentPort {
  describe(): HostEnvironment;
}
