import type { ResourceDetectorAdapter, ResourcePlan } from '@maou/bench-infra';
import type { BenchmarkDefaults } from '@maou/bench-interface';
import { candidateBackends, type BackendChoice } from '@maou/bench-app';
import { machineCache } from './composition-root';
import type { PlugIns } from './plug-ins';

/** The flags a resource plan defers to. */
export interface ResourceFlags {
  readonly threads?: number;
  readonly dataloaderWorkers?: number;
  readonly batchSize?: number;
  /** the backend asked for: when one it may start reserves address space per thread, threads and workers must fit it */
  readonly gpu?: string;
}

// Before validation: a --gpu no backend selects may start nothing (validation refuses it).
const mayStart = <B extends BackendChoice>(gpu: string | undefined, backends: readonly B[]): B[] => {
  const v = gpu?.toLowerCase();
  if (v === undefined || v === '' || v === 'none') return candidateBackends('host', backends);
  return v === 'auto' ? candidateBackends('auto', backends) : backends.filter((b) => b.selects(v) !== null);
};

/**
 * Detects the resource limits once for this run and turns them into the defaults of threads, loader workers and
 * batch size; explicit flags win. Reads only /sys/fs/cgroup and the OS, logs nothing (the caller logs the plan
 * once the flags are known to be valid). The detector comes from the composition root (`machineResources`).
 */
export const planResources = async (
  flags: ResourceFlags,
  detector: Pick<ResourceDetectorAdapter, 'plan'>,
  { backends, sources }: PlugIns,
): Promise<{ plan: ResourcePlan; defaults: BenchmarkDefaults }> => {
  const plan = await detector.plan({
    threads: flags.threads,
    workers: flags.dataloaderWorkers,
    batchSize: flags.batchSize,
    wasm: mayStart(flags.gpu, backends.byPriority()).some((b) => b.reservesAddressSpace),
  });
  return {
    plan,
    defaults: {
      cache: machineCache(),
      sources: sources.choices(),
      backends: backends.byPriority(),
      workers: plan.workers,
      threads: plan.threads,
      batchSize: plan.batchSize,
    },
  };
};
