import type { ResourceDecision, ResourceLimitsReport } from '../report/benchmark-report';
import { BATCH_SIZE } from '../config/loader-settings';

/** CPU and memory limits a cgroup puts on this process; null where the cgroup sets none. @public */
export interface CgroupLimits {
  readonly version: 'v2' | 'v1' | 'none';
  /** CPU quota in cores (may be fractional, e.g. 1.5) */
  readonly cpuQuotaCores: number | null;
  readonly memoryLimitBytes: number | null;
}

/**
 * The address-space limit (RLIMIT_AS) and whether V8 bounds-checks wasm with guard regions (its trap handler).
 * @public
 */
export interface AddressSpace {
  /** the soft limit in bytes; null when unlimited or unreadable */
  readonly limitBytes: number | null;
  /** each wasm memory then reserves about 10 GiB of address space up front */
  readonly guardRegions: boolean;
}

/** What the host offers this process, after cgroup limits and CPU affinity (the host package measures it). @public */
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

/** The most compute threads derived from the cores (a user's `--threads` may ask for more). @public */
export const MAX_DERIVED_THREADS = 8;

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
  const threads = c <= 2 ? c : c <= 4 ? c - 1 : Math.min(MAX_DERIVED_THREADS, c);
  const workers = c <= 1 || r.memoryBytes < 2 * GIB ? 0 : Math.min(2, Math.max(1, Math.floor(c / 2)));
  const m = r.memoryBytes;
  const maxBatchSize = m < GIB ? 64 : m < 2 * GIB ? 128 : m < 4 * GIB ? 256 : m < 8 * GIB ? 1024 : null;
  return { threads, workers, maxBatchSize };
};

/** Settings the user gave explicitly; each one wins over the derived value. @public */
export interface GivenSettings {
  readonly threads?: number;
  readonly workers?: number;
  readonly batchSize?: number;
  /** the run's stage: `--stage1-batch-size` and `--stage2-batch-size` win over `--batch-size` at their stage */
  readonly stage?: number;
  readonly stage1BatchSize?: number;
  readonly stage2BatchSize?: number;
}

/** The batch size the flags give for the run's stage, and which flag gave it (maou: stageN_batch_size wins). */
const givenBatch = (user: GivenSettings): { readonly value: number; readonly flag: string } | null => {
  const staged = user.stage === 1 ? user.stage1BatchSize : user.stage === 2 ? user.stage2BatchSize : undefined;
  if (staged !== undefined) return { value: staged, flag: `--stage${user.stage}-batch-size` };
  return user.batchSize === undefined ? null : { value: user.batchSize, flag: BATCH_SIZE.flag };
};

/** Threads and loader workers inside the address-space limit: the first that fits, or why none does. @public */
export type AddressSpaceFit =
  | { readonly ok: true; readonly threads: number; readonly workers: number; readonly reduced: boolean }
  | { readonly ok: false; readonly message: string };

/**
 * Fits threads and workers in the address space, for a backend whose threads reserve their own heaps (the host
 * package measured what they reserve); derived values may shrink, given ones stay.
 * @public
 */
export type AddressSpaceFitter = (
  wanted: { readonly threads: number; readonly workers: number },
  given: { readonly threads: boolean; readonly workers: boolean },
) => AddressSpaceFit;

/** Resources and the settings the run uses, each decision with its origin and reason. @public */
export interface ResourcePlan {
  readonly resources: DetectedResources;
  readonly derived: DerivedSettings;
  readonly threads: number;
  readonly workers: number;
  readonly batchSize: number;
  /** the limits and decisions, as the report shows them */
  readonly report: ResourceLimitsReport;
  /** why the run cannot fit in this process's limits (the limit and the need), or null */
  readonly refusal: string | null;
}

const gib = (bytes: number): string => `${(bytes / GIB).toFixed(1)} GiB`;

const decide = (r: DetectedResources, d: DerivedSettings, user: GivenSettings): ResourceDecision[] => {
  const cores = `${r.cpuCores} usable core(s)`;
  const threads: ResourceDecision =
    user.threads === undefined
      ? {
          setting: 'threads',
          value: d.threads,
          origin: 'derived',
          reason: `${cores}: all of them up to 2, one left to the loader up to 4, else at most 8`,
        }
      : {
          setting: 'threads',
          value: user.threads,
          origin: 'user',
          reason: `--threads given (the limits suggest ${d.threads})`,
        };
  const workers: ResourceDecision =
    user.workers === undefined
      ? {
          setting: 'workers',
          value: d.workers,
          origin: 'derived',
          reason: `${cores}, ${gib(r.memoryBytes)}: none on one core or under 2 GiB, else half the cores, at most 2`,
        }
      : {
          setting: 'workers',
          value: user.workers,
          origin: 'user',
          reason: `--dataloader-workers given (the limits suggest ${d.workers})`,
        };
  const cap = d.maxBatchSize;
  const fallback = BATCH_SIZE.default;
  const given = givenBatch(user);
  const batch: ResourceDecision =
    given !== null
      ? {
          setting: 'batch_size',
          value: given.value,
          origin: 'user',
          reason:
            cap !== null && given.value > cap
              ? `${given.flag} given, above the ${cap} that ${gib(r.memoryBytes)} suggests`
              : `${given.flag} given`,
        }
      : cap !== null && cap < fallback
        ? {
            setting: 'batch_size',
            value: cap,
            origin: 'derived',
            reason: `${gib(r.memoryBytes)} of memory caps the batch at ${cap} (default ${fallback})`,
          }
        : {
            setting: 'batch_size',
            value: fallback,
            origin: 'default',
            reason: `maou's default; ${gib(r.memoryBytes)} of memory sets ${cap === null ? 'no cap' : `a cap of ${cap}`}`,
          };
  return [threads, workers, batch];
};

/**
 * The one owner of threads, loader workers and batch size: from the measured resources, the user's flags (which
 * win; `--stageN-batch-size` over `--batch-size` at its stage) and, for a backend whose threads reserve address
 * space, the fitter; every decision states its origin and reason. The options, calibration and the report read the
 * plan; what changes a value later (calibration's choice, an out-of-memory retry, a sweep point) is recorded over
 * the plan's decision by `redecide`.
 * @public
 */
export const planResources = (
  resources: DetectedResources,
  user: GivenSettings,
  fit?: AddressSpaceFitter,
): ResourcePlan => {
  const limited = deriveSettings(resources);
  const fitted = fit?.(
    { threads: user.threads ?? limited.threads, workers: user.workers ?? limited.workers },
    { threads: user.threads !== undefined, workers: user.workers !== undefined },
  );
  const derived = fitted?.ok ? { ...limited, threads: fitted.threads, workers: fitted.workers } : limited;
  const decisions = decide(resources, derived, user).map((d) =>
    fitted?.ok && fitted.reduced && d.origin === 'derived' && (d.setting === 'threads' || d.setting === 'workers')
      ? {
          ...d,
          reason: `${d.reason}; fewer to fit the address-space limit of ${gib(resources.addressSpace.limitBytes!)}`,
        }
      : d,
  );
  const value = (setting: ResourceDecision['setting']): number => decisions.find((x) => x.setting === setting)!.value!;
  const cg = resources.cgroup;
  return {
    resources,
    derived,
    threads: value('threads'),
    workers: value('workers'),
    batchSize: value('batch_size'),
    report: {
      cgroup: cg.version,
      cpu_quota_cores: cg.cpuQuotaCores,
      memory_limit_bytes: cg.memoryLimitBytes,
      affinity_cpus: resources.affinityCpus,
      host_memory_bytes: resources.hostMemoryBytes,
      cpu_cores: resources.cpuCores,
      memory_bytes: resources.memoryBytes,
      decisions,
    },
    refusal: fitted && !fitted.ok ? fitted.message : null,
  };
};
