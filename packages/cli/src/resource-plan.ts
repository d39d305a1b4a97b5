import type { ResourceDetectorAdapter, ResourcePlan } from '@maou/bench-host';
import type { BenchmarkDefaults } from '@maou/bench-interface';
import { BACKENDS } from './backends';
import { machineDefaults } from './composition-root';

/** The flags a resource plan defers to. */
export interface ResourceFlags {
  readonly threads?: number;
  readonly dataloaderWorkers?: number;
  readonly batchSize?: number;
  /** the backend asked for; unset or wasm means wasm, whose threads and workers must fit the address space */
  readonly gpu?: string;
}

/**
 * Detects the resource limits once for this run and turns them into the defaults of threads, loader workers and
 * batch size; explicit flags win. Reads only /sys/fs/cgroup and the OS, logs nothing (the caller logs the plan
 * once the flags are known to be valid). The detector comes from the composition root (`machineResources`).
 */
export const planResources = async (
  flags: ResourceFlags,
  detector: Pick<ResourceDetectorAdapter, 'plan'>,
): Promise<{ plan: ResourcePlan; defaults: BenchmarkDefaults }> => {
  const plan = await detector.plan({
    threads: flags.threads,
    workers: flags.dataloaderWorkers,
    batchSize: flags.batchSize,
    wasm: flags.gpu === undefined || flags.gpu === 'wasm' || flags.gpu === 'auto',
  });
  return {
    plan,
    defaults: {
      ...machineDefaults(),
      backends: BACKENDS.byPriority(),
      workers: plan.workers,
      threads: plan.threads,
      batchSize: plan.batchSize,
    },
  };
};
