import os from 'node:os';
import type { LoggerPort } from '@maou/bench-use-cases';
import { usableResources, type AddressSpace, type DetectedResources, type ResourcePlan } from '@maou/bench-domain';
import { readAddressSpace } from './address-space';
import { readCgroupLimits } from './cgroup-limits';

const kv = (fields: Readonly<Record<string, unknown>>): string =>
  Object.entries(fields)
    .map(([k, v]) => `${k}=${typeof v === 'string' && /\s/.test(v) ? JSON.stringify(v) : v}`)
    .join(' ');

type HostFacts = {
  readonly affinityCpus: number;
  readonly memoryBytes: number;
  readonly addressSpace?: AddressSpace;
};
let thisProcess: Promise<DetectedResources> | null = null;

/**
 * Cgroup limits, CPU affinity and host memory, without logging. With no arguments this process's own limits, read
 * once and shared (the command's plan and the wasm backend see the same detection); arguments are for tests.
 * @internal
 */
export const readUsableResources = (cgroupRoot?: string, host?: HostFacts): Promise<DetectedResources> => {
  const read = async (root: string, h: HostFacts) =>
    usableResources(
      await readCgroupLimits(root),
      h.affinityCpus,
      h.memoryBytes,
      h.addressSpace ?? (await readAddressSpace()),
    );
  if (cgroupRoot === undefined && host === undefined)
    return (thisProcess ??= read('/sys/fs/cgroup', {
      affinityCpus: os.availableParallelism(),
      memoryBytes: os.totalmem(),
    }));
  return read(
    cgroupRoot ?? '/sys/fs/cgroup',
    host ?? { affinityCpus: os.availableParallelism(), memoryBytes: os.totalmem() },
  );
};

/**
 * Measures cgroup limits (v2, then v1), CPU affinity, memory and the address space once per run, without logging;
 * the domain's `planResources` decides from them. {@link logResourcePlan} writes the limits and every decision at
 * info as key=value.
 * @public
 */
export class ResourceDetectorAdapter {
  private detected: Promise<DetectedResources> | null = null;

  /** Without arguments: this process's limits (shared with every other reader in the process). */
  constructor(
    private readonly cgroupRoot?: string,
    private readonly host?: HostFacts,
  ) {}

  detect(): Promise<DetectedResources> {
    this.detected ??= readUsableResources(this.cgroupRoot, this.host);
    return this.detected;
  }
}

/** Logs a plan at info: one `resource_limits` line, then one `resource_decision` line per setting. @public */
export const logResourcePlan = (plan: ResourcePlan, logger: LoggerPort): void => {
  const r = plan.report;
  const limits = {
    cgroup: r.cgroup,
    cpu_quota: r.cpu_quota_cores ?? 'none',
    affinity_cpus: r.affinity_cpus,
    cpu_cores: r.cpu_cores,
    memory_mb: Math.round(r.memory_bytes / 2 ** 20),
  };
  logger.info(limits, `resource_limits ${kv(limits)}`);
  for (const d of r.decisions) {
    const fields = { setting: d.setting, value: d.value ?? 'none', origin: d.origin, reason: d.reason };
    logger.info(fields, `resource_decision ${kv(fields)}`);
  }
};
