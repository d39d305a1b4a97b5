import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** CPU and memory limits a cgroup puts on this process; null where the cgroup sets none. @public */
export interface CgroupLimits {
  readonly version: 'v2' | 'v1' | 'none';
  /** CPU quota in cores (may be fractional, e.g. 1.5) */
  readonly cpuQuotaCores: number | null;
  readonly memoryLimitBytes: number | null;
}

// The kernel reports "no limit" on v1 as a huge page-rounded number close to 2^63.
const V1_UNLIMITED = 2 ** 60;

const text = async (path: string): Promise<string | null> => {
  try {
    return (await readFile(path, 'utf8')).trim();
  } catch {
    return null;
  }
};

const positiveInt = (s: string | null | undefined): number | null => (s && /^\d+$/.test(s) && Number(s) > 0 ? Number(s) : null);

/** `cpu.max`: "QUOTA PERIOD" or "max PERIOD"; a period of 0 or a missing one means the default 100000. */
const parseCpuMax = (s: string | null): number | null => {
  const [quota, period] = (s ?? '').split(/\s+/);
  const q = positiveInt(quota);
  return q === null ? null : q / (positiveInt(period) ?? 100000);
};

const readV2 = async (root: string): Promise<CgroupLimits | null> => {
  const cpu = await text(join(root, 'cpu.max'));
  const mem = await text(join(root, 'memory.max'));
  if (cpu === null && mem === null) return null;
  return { version: 'v2', cpuQuotaCores: parseCpuMax(cpu), memoryLimitBytes: positiveInt(mem) };
};

const readV1 = async (root: string): Promise<CgroupLimits | null> => {
  const cpuDir = (await text(join(root, 'cpu', 'cpu.cfs_quota_us'))) !== null ? 'cpu' : 'cpu,cpuacct';
  const quota = await text(join(root, cpuDir, 'cpu.cfs_quota_us'));
  const period = await text(join(root, cpuDir, 'cpu.cfs_period_us'));
  const mem = await text(join(root, 'memory', 'memory.limit_in_bytes'));
  if (quota === null && mem === null) return null;
  // An unlimited v1 quota is -1, which positiveInt rejects.
  const q = positiveInt(quota);
  const memory = positiveInt(mem);
  return {
    version: 'v1',
    cpuQuotaCores: q === null ? null : q / (positiveInt(period) ?? 100000),
    memoryLimitBytes: memory !== null && memory < V1_UNLIMITED ? memory : null,
  };
};

/** Reads cgroup v2 files under `root`, then v1, then reports no limits. @public */
export const readCgroupLimits = async (root = '/sys/fs/cgroup'): Promise<CgroupLimits> =>
  (await readV2(root)) ?? (await readV1(root)) ?? { version: 'none', cpuQuotaCores: null, memoryLimitBytes: null };
