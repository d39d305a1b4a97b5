import { resolveGpu } from '@maou/bench-use-cases';
import { planResources as decide, type ResourcePlan } from '@maou/bench-domain';
import { fitAddressSpace, type ResourceDetectorAdapter } from '@maou/bench-host';
import { givenSettings, type BenchmarkDefaults, type ResourceFlags } from '@maou/bench-interface';
import { machineCache } from './composition-root';
import type { PlugIns } from './plug-ins';

/** The flags a resource plan defers to. */
export interface PlanFlags extends ResourceFlags {
  /** the backend asked for: when one it may start reserves address space per thread, threads and workers must fit it */
  readonly gpu?: string;
}

/**
 * Measures the resource limits once for this run (the host package's detector: /sys/fs/cgroup and the OS, no
 * logging) and has the domain decide threads, loader workers and batch size from them and the flags
 * (`planResources`, their one owner); the options read these decisions and never the flags again. The caller logs
 * the plan once the flags are known to be valid. The detector comes from the composition root (`machineResources`).
 */
export const planResources = async (
  flags: PlanFlags,
  detector: Pick<ResourceDetectorAdapter, 'detect'>,
  { backends, sources }: PlugIns,
): Promise<{ plan: ResourcePlan; defaults: BenchmarkDefaults }> => {
  const measured = await detector.detect();
  // before validation: a --gpu no backend selects may start nothing (validation then refuses it)
  const gpu = resolveGpu(flags.gpu, backends.byPriority());
  const reserves = gpu.ok && gpu.value.candidates.some((b) => b.reservesAddressSpace);
  const plan = decide(
    measured,
    givenSettings(flags),
    reserves ? (wanted, given) => fitAddressSpace(measured.addressSpace, wanted, given) : undefined,
  );
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
