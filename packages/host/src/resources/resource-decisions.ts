import type { AddressSpace } from './address-space';
import type { CgroupLimits } from './cgroup-limits';

/** What the host offers this process, after cgroup limits and CPU affinity. @public */
export interface DetectedResources {
  readonly cgroup: CgroupLimits;
  /** CPUs this process may run on (affinity) */
  readonly affinityCpus: number;
  readonly hostMemoryBytes: number;
  /** usable cores: the affinity count, capped by the floored cgroup quota */
  readonly cpuCores: number;
  /** the smaller of the cgroup limit and the host's memory */
  readonly memoryBytes: number;
  /** RLIMIT_AS and whether wasm memories reserve guard regions */
  readonly addressSpace: AddressSpace;
}

/** Settings derived from the resources. @public */
export interface DerivedSettings {
  readonly threads: number;
  readonly workers: number;
  /** largest batch worth trying; null when memory does not bound it */
  readonly maxBatchSize: number | null;
}

const GIB = 1024 ** 3;

/**
 * A fractional quota is floored (1.5 cores → 1): a CFS quota stalls every thread of the group once it is spent, so
 * oversubscribing costs more than the idle half core.
 * @public
 */
export const usableResources = (
  cgroup: CgroupLimits,
  affinityCpus: number,
  hostMemoryBytes: number,
  addressSpace: AddressSpace = { limitBytes: null, guardRegions: true },
): DetectedResources => {
  const quota = cgroup.cpuQuotaCores === null ? Infinity : Math.max(1, Math.floor(cgroup.cpuQuotaCores));
  return {
    cgroup,
    affinityCpus,
    hostMemoryBytes,
    cpuCores: Math.max(1, Math.min(affinityCpus, quota)),
    memoryBytes: Math.min(hostMemoryBytes, cgroup.memoryLimitBytes ?? Infinity),
    addressSpace,
  };
};

/**
 * Compute threads leave a core to the loader once there are enough (c ≤ 2: all; ≤ 4: c − 1; else up to 8).
 * Loader workers: none on one core or under 2 GiB; otherwise half the cores, at most 2, so the loading is off the
 * training thread without starving it. Batch cap by memory tier.
 * @public
 */
export const deriveSettings = (r: DetectedResources): DerivedSettings => {
  const c = r.cpuCores;
  const threads = c <= 2 ? c : c <= 4 ? c - 1 : Math.min(8, c);
  const workers = c <= 1 || r.memoryBytes < 2 * GIB ? 0 : Math.min(2, Math.max(1, Math.floor(c / 2)));
  const m = r.memoryBytes;
  const maxBatchSize = m < GIB ? 64 : m < 2 * GIB ? 128 : m < 4 * GIB ? 256 : m < 8 * GIB ? 1024 : null;
  return { threads, workers, maxBatchSize };
};
