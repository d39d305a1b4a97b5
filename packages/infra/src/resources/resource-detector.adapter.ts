import os from 'node:os';
import type { LoggerPort } from '@maou/bench-app';
import { readCgroupLimits } from './cgroup-limits';
import { deriveSettings, usableResources, type DerivedSettings, type DetectedResources } from './resource-decisions';

/** Settings the user gave explicitly; each one wins over the derived value. @public */
export interface ResourceOverrides {
  readonly threads?: number;
  readonly workers?: number;
  readonly batchSize?: number;
}

/** Resources and the settings that will be used, each with where it came from. @public */
export interface ResourcePlan {
  readonly resources: DetectedResources;
  readonly derived: DerivedSettings;
  readonly threads: number;
  readonly workers: number;
  readonly batchSize: number | null;
}

const kv = (fields: Readonly<Record<string, unknown>>): string => Object.entries(fields).map(([k, v]) => `${k}=${v}`).join(' ');

/** Cgroup limits, CPU affinity and host memory as read now, without logging. @internal */
export const readUsableResources = async (
  cgroupRoot = '/sys/fs/cgroup', host = { affinityCpus: os.availableParallelism(), memoryBytes: os.totalmem() },
): Promise<DetectedResources> => usableResources(await readCgroupLimits(cgroupRoot), host.affinityCpus, host.memoryBytes);

/** Detects cgroup limits, affinity and memory once, logs each decision once as key=value. @public */
export class ResourceDetectorAdapter {
  private detected: Promise<DetectedResources> | null = null;

  constructor(
    private readonly logger: LoggerPort,
    private readonly cgroupRoot = '/sys/fs/cgroup',
    private readonly host = { affinityCpus: os.availableParallelism(), memoryBytes: os.totalmem() },
  ) {}

  detect(): Promise<DetectedResources> {
    this.detected ??= readUsableResources(this.cgroupRoot, this.host).then((r) => {
      const cg = r.cgroup;
      const fields = { cgroup: cg.version, cpu_quota: cg.cpuQuotaCores ?? 'none', affinity_cpus: r.affinityCpus, cpu_cores: r.cpuCores, memory_mb: Math.round(r.memoryBytes / 2 ** 20) };
      this.logger.info(fields, `resource_limits ${kv(fields)}`);
      return r;
    });
    return this.detected;
  }

  /** Derived threads, workers and batch cap, with the user's explicit settings winning (overrides logged). */
  async plan(user: ResourceOverrides = {}): Promise<ResourcePlan> {
    const resources = await this.detect();
    const derived = deriveSettings(resources);
    const pick = (key: string, given: number | undefined, value: number): number => {
      if (given === undefined) return value;
      if (given !== value) this.logger.info({ key, user: given, derived: value }, `resource_override ${kv({ key, user: given, derived: value })}`);
      return given;
    };
    const threads = pick('threads', user.threads, derived.threads);
    const workers = pick('workers', user.workers, derived.workers);
    const batchSize = user.batchSize === undefined ? derived.maxBatchSize : user.batchSize;
    if (user.batchSize !== undefined && derived.maxBatchSize !== null && user.batchSize > derived.maxBatchSize) {
      this.logger.info({ key: 'batch_size', user: user.batchSize, derived: derived.maxBatchSize }, `resource_override ${kv({ key: 'batch_size', user: user.batchSize, derived: derived.maxBatchSize })}`);
    }
    const decided = { threads, workers, max_batch_size: derived.maxBatchSize ?? 'none' };
    this.logger.info(decided, `resource_decisions ${kv(decided)}`);
    return { resources, derived, threads, workers, batchSize };
  }
}
