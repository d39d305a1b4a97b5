import os from 'node:os';
import type { LoggerPort } from '@maou/bench-app';
import { BATCH_SIZE, type ResourceDecision, type ResourceLimitsReport } from '@maou/bench-domain';
import { fitAddressSpace, readAddressSpace, type AddressSpace } from './address-space';
import { readCgroupLimits } from './cgroup-limits';
import { deriveSettings, usableResources, type DerivedSettings, type DetectedResources } from './resource-decisions';

/** Settings the user gave explicitly; each one wins over the derived value. @public */
export interface ResourceOverrides {
  readonly threads?: number;
  readonly workers?: number;
  readonly batchSize?: number;
  /** the run uses the wasm backend: threads and workers are fitted in the address-space limit */
  readonly wasm?: boolean;
}

/** Resources and the settings that will be used, each decision with its origin and reason. @public */
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

const kv = (fields: Readonly<Record<string, unknown>>): string =>
  Object.entries(fields)
    .map(([k, v]) => `${k}=${typeof v === 'string' && /\s/.test(v) ? JSON.stringify(v) : v}`)
    .join(' ');
const gib = (bytes: number): string => `${(bytes / 2 ** 30).toFixed(1)} GiB`;

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

const decide = (
  r: DetectedResources,
  d: DerivedSettings,
  user: ResourceOverrides,
  defaultBatchSize: number,
): ResourceDecision[] => {
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
  const batch: ResourceDecision =
    user.batchSize !== undefined
      ? {
          setting: 'batch_size',
          value: user.batchSize,
          origin: 'user',
          reason:
            cap !== null && user.batchSize > cap
              ? `--batch-size given, above the ${cap} that ${gib(r.memoryBytes)} suggests`
              : '--batch-size given',
        }
      : cap !== null && cap < defaultBatchSize
        ? {
            setting: 'batch_size',
            value: cap,
            origin: 'derived',
            reason: `${gib(r.memoryBytes)} of memory caps the batch at ${cap} (default ${defaultBatchSize})`,
          }
        : {
            setting: 'batch_size',
            value: defaultBatchSize,
            origin: 'default',
            reason: `maou's default; ${gib(r.memoryBytes)} of memory sets ${cap === null ? 'no cap' : `a cap of ${cap}`}`,
          };
  return [threads, workers, batch];
};

/**
 * Detects cgroup limits (v2, then v1), CPU affinity and memory once per run, derives threads, loader workers and a
 * batch cap from them, and states each decision. `plan` logs nothing, so flags can be checked first;
 * {@link logResourcePlan} writes the limits and every decision at info as key=value.
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

  /** Derived threads, workers and batch size; the user's explicit settings win, and each decision says so. */
  async plan(user: ResourceOverrides = {}, defaultBatchSize = BATCH_SIZE.default): Promise<ResourcePlan> {
    const resources = await this.detect();
    const limited = deriveSettings(resources);
    const fit = user.wasm
      ? fitAddressSpace(
          resources.addressSpace,
          { threads: user.threads ?? limited.threads, workers: user.workers ?? limited.workers },
          { threads: user.threads !== undefined, workers: user.workers !== undefined },
        )
      : null;
    const derived = fit?.ok ? { ...limited, threads: fit.threads, workers: fit.workers } : limited;
    const decisions = decide(resources, derived, user, defaultBatchSize).map((d) =>
      fit?.ok && fit.reduced && d.origin === 'derived' && (d.setting === 'threads' || d.setting === 'workers')
        ? {
            ...d,
            reason: `${d.reason}; fewer to fit the address-space limit of ${gib(resources.addressSpace.limitBytes!)}`,
          }
        : d,
    );
    const value = (setting: ResourceDecision['setting']): number =>
      decisions.find((x) => x.setting === setting)!.value!;
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
      refusal: fit && !fit.ok ? fit.message : null,
    };
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
