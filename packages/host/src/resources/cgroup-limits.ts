import type { CgroupLimits } from '@maou/bench-domain';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

// The kernel reports "no limit" on v1 as a huge page-rounded number close to 2^63.
const V1_UNLIMITED = 2 ** 60;

const text = async (path: string): Promise<string | null> => {
  try {
    return (await readFile(path, 'utf8')).trim();
  } catch {
    return null;
  }
};

const positiveInt = (s: string | null | undefined): number | null =>
  s && /^\d+$/.test(s) && Number(s) > 0 ? Number(s) : null;
const smallest = (xs: readonly (number | null)[]): number | null =>
  xs.reduce<number | null>((m, x) => (x === null ? m : m === null ? x : Math.min(m, x)), null);

/** `cpu.max`: "QUOTA PERIOD" or "max PERIOD"; a period of 0 or a missing one means the default 100000. */
const parseCpuMax = (s: string | null): number | null => {
  const [quota, period] = (s ?? '').split(/\s+/);
  const q = positiveInt(quota);
  return q === null ? null : q / (positiveInt(period) ?? 100000);
};

/** The process's own cgroup per hierarchy, from /proc/self/cgroup: v2's `0::/path`, v1's `N:cpu,cpuacct:/path`. */
interface OwnCgroups {
  readonly v2: string;
  readonly cpu: string;
  readonly memory: string;
}

const ownCgroups = async (selfCgroup: string): Promise<OwnCgroups> => {
  const own = { v2: '/', cpu: '/', memory: '/' };
  for (const line of ((await text(selfCgroup)) ?? '').split('\n')) {
    const [, controllers = '', path = '/'] = /^\d+:([^:]*):(.*)$/.exec(line) ?? [];
    const names = controllers.split(',');
    if (controllers === '') own.v2 = path;
    if (names.includes('cpu')) own.cpu = path;
    if (names.includes('memory')) own.memory = path;
  }
  return own;
};

/**
 * The directories whose limits bind a cgroup: the mount root and every level down to the process's own cgroup (a
 * parent's limit applies to its children). Levels that are not there are skipped: inside a container the mount root
 * is the container's own cgroup, while /proc/self/cgroup may still show the host's path.
 */
const levels = (mount: string, own: string): string[] => {
  const parts = own.split('/').filter((p) => p !== '' && p !== '..');
  return parts.reduce((dirs, p) => [...dirs, join(dirs.at(-1)!, p)], [mount]);
};

const readV2 = async (root: string, own: OwnCgroups): Promise<CgroupLimits | null> => {
  const dirs = levels(root, own.v2);
  const cpu = await Promise.all(dirs.map((d) => text(join(d, 'cpu.max'))));
  const mem = await Promise.all(dirs.map((d) => text(join(d, 'memory.max'))));
  // The root cgroup has neither file, so also accept the v2 root's own marker.
  if ([...cpu, ...mem].every((s) => s === null) && (await text(join(root, 'cgroup.controllers'))) === null) return null;
  return {
    version: 'v2',
    cpuQuotaCores: smallest(cpu.map(parseCpuMax)),
    memoryLimitBytes: smallest(mem.map(positiveInt)),
  };
};

const readV1 = async (root: string, own: OwnCgroups): Promise<CgroupLimits | null> => {
  const cpuMount = join(root, (await text(join(root, 'cpu', 'cpu.cfs_quota_us'))) !== null ? 'cpu' : 'cpu,cpuacct');
  const cpuDirs = levels(cpuMount, own.cpu);
  const memDirs = levels(join(root, 'memory'), own.memory);
  const quota = await Promise.all(cpuDirs.map((d) => text(join(d, 'cpu.cfs_quota_us'))));
  const period = await Promise.all(cpuDirs.map((d) => text(join(d, 'cpu.cfs_period_us'))));
  const mem = await Promise.all(memDirs.map((d) => text(join(d, 'memory.limit_in_bytes'))));
  if ([...quota, ...mem].every((s) => s === null)) return null;
  // An unlimited v1 quota is -1, which positiveInt rejects.
  const cores = quota.map((q, i) => {
    const n = positiveInt(q);
    return n === null ? null : n / (positiveInt(period[i]) ?? 100000);
  });
  return {
    version: 'v1',
    cpuQuotaCores: smallest(cores),
    memoryLimitBytes: smallest(
      mem.map((m) => {
        const n = positiveInt(m);
        return n !== null && n < V1_UNLIMITED ? n : null;
      }),
    ),
  };
};

/**
 * Reads cgroup v2 files under `root`, then v1, then reports no limits. Each hierarchy is read from its mount root down
 * to this process's own cgroup (named in `selfCgroup`), and the tightest limit on that path wins.
 * @public
 */
export const readCgroupLimits = async (
  root = '/sys/fs/cgroup',
  selfCgroup = '/proc/self/cgroup',
): Promise<CgroupLimits> => {
  const own = await ownCgroups(selfCgroup);
  return (
    (await readV2(root, own)) ??
    (await readV1(root, own)) ?? { version: 'none', cpuQuotaCores: null, memoryLimitBytes: null }
  );
};
