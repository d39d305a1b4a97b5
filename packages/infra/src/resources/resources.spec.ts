import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryLogger } from '@maou/bench-app/testing';
import { readCgroupLimits } from './cgroup-limits';
import { deriveSettings, usableResources } from './resource-decisions';
import { ProcessResourceMonitorAdapter } from './process-resource-monitor.adapter';
import { ResourceDetectorAdapter } from './resource-detector.adapter';

const GIB = 1024 ** 3;
let root: string;
beforeEach(async () => { root = await mkdtemp(join(tmpdir(), 'maou-cgroup-')); });
afterEach(() => rm(root, { recursive: true, force: true }));
const put = async (rel: string, body: string) => {
  await mkdir(join(root, rel, '..'), { recursive: true });
  await writeFile(join(root, rel), body);
};

describe('cgroup limits', () => {
  it('given cgroup v2 files, when read, then quota and memory come from cpu.max and memory.max', async () => {
    await put('cpu.max', '150000 100000\n');
    await put('memory.max', `${3 * GIB}\n`);
    expect(await readCgroupLimits(root)).toEqual({ version: 'v2', cpuQuotaCores: 1.5, memoryLimitBytes: 3 * GIB });
  });

  it('given v2 "max" values, when read, then there is no limit', async () => {
    await put('cpu.max', 'max 100000');
    await put('memory.max', 'max');
    expect(await readCgroupLimits(root)).toEqual({ version: 'v2', cpuQuotaCores: null, memoryLimitBytes: null });
  });

  it('given only cgroup v1 files, when read, then cfs quota/period and limit_in_bytes are used; unlimited ones ignored', async () => {
    await put('cpu,cpuacct/cpu.cfs_quota_us', '200000');
    await put('cpu,cpuacct/cpu.cfs_period_us', '50000');
    await put('memory/memory.limit_in_bytes', '9223372036854771712');
    expect(await readCgroupLimits(root)).toEqual({ version: 'v1', cpuQuotaCores: 4, memoryLimitBytes: null });
    await put('cpu,cpuacct/cpu.cfs_quota_us', '-1');
    await put('memory/memory.limit_in_bytes', `${GIB}`);
    expect(await readCgroupLimits(root)).toEqual({ version: 'v1', cpuQuotaCores: null, memoryLimitBytes: GIB });
  });

  it('given no cgroup files or garbage, when read, then it falls back to no limits', async () => {
    expect(await readCgroupLimits(join(root, 'absent'))).toEqual({ version: 'none', cpuQuotaCores: null, memoryLimitBytes: null });
    await put('cpu.max', 'garbage');
    expect((await readCgroupLimits(root)).cpuQuotaCores).toBeNull();
  });
});

describe('derived settings', () => {
  it('given a fractional quota below the affinity count, when combined, then cores are floored and capped by affinity', () => {
    const cg = { version: 'v2' as const, cpuQuotaCores: 2.5, memoryLimitBytes: GIB };
    expect(usableResources(cg, 8, 16 * GIB)).toMatchObject({ cpuCores: 2, memoryBytes: GIB });
    expect(usableResources({ ...cg, cpuQuotaCores: 0.5 }, 1, 16 * GIB).cpuCores).toBe(1);
    expect(usableResources({ ...cg, cpuQuotaCores: null }, 3, 16 * GIB).cpuCores).toBe(3);
  });

  it.each([
    [1, 16, 1, 0, null], [2, 16, 2, 1, null], [4, 16, 3, 2, null], [16, 16, 8, 2, null], [4, 1.5, 3, 0, 128], [4, 0.5, 3, 0, 64],
  ])('given %i cores and %f GiB, then threads %i, workers %i, batch cap %p', (cores, gib, threads, workers, cap) => {
    const r = usableResources({ version: 'none', cpuQuotaCores: null, memoryLimitBytes: null }, cores, gib * GIB);
    expect(deriveSettings(r)).toEqual({ threads, workers, maxBatchSize: cap });
  });
});

describe('ResourceDetectorAdapter', () => {
  it('given explicit user settings, when planned, then they win and each override is logged once as key=value', async () => {
    await put('cpu.max', '400000 100000');
    await put('memory.max', `${3 * GIB}`);
    const logger = new MemoryLogger();
    const detector = new ResourceDetectorAdapter(logger, root, { affinityCpus: 8, memoryBytes: 64 * GIB });
    const plan = await detector.plan({ threads: 1, batchSize: 512 });
    expect(plan).toMatchObject({ threads: 1, workers: 2, batchSize: 512, derived: { threads: 3, maxBatchSize: 256 } });
    await detector.plan();
    const msgs = logger.lines.map((l) => l.msg);
    expect(msgs.filter((m) => m.startsWith('resource_limits'))).toEqual(['resource_limits cgroup=v2 cpu_quota=4 affinity_cpus=8 cpu_cores=4 memory_mb=3072']);
    expect(msgs).toContain('resource_override key=threads user=1 derived=3');
    expect(msgs).toContain('resource_override key=batch_size user=512 derived=256');
  });
});

describe('ProcessResourceMonitorAdapter', () => {
  it('given a fake nvidia-smi, when sampling, then CPU, RSS, heap and GPU figures are recorded; absent nvidia-smi gives null', async () => {
    const clock = { now: () => performance.now(), wallTime: () => new Date() };
    const smi = join(root, 'nvidia-smi');
    await writeFile(smi, '#!/bin/sh\necho "37, 1024"\n');
    await chmod(smi, 0o755);
    const withGpu = new ProcessResourceMonitorAdapter(clock, smi);
    withGpu.start(20);
    const until = performance.now() + 120;
    while (performance.now() < until) Math.sqrt(Math.random());
    await new Promise((r) => setTimeout(r, 60));
    const samples = await withGpu.stop();
    expect(samples.length).toBeGreaterThanOrEqual(3);
    expect(Math.max(...samples.map((s) => s.cpuPercent))).toBeGreaterThan(10);
    expect(samples.at(-1)).toMatchObject({ gpuUtilPercent: 37, gpuMemoryBytes: 1024 * 2 ** 20 });
    expect(samples[0]!.rssBytes).toBeGreaterThan(samples[0]!.heapUsedBytes);
    const noGpu = new ProcessResourceMonitorAdapter(clock, join(root, 'no-such-smi'));
    noGpu.start(20);
    await new Promise((r) => setTimeout(r, 60));
    expect((await noGpu.stop()).every((s) => s.gpuUtilPercent === null && s.gpuMemoryBytes === null)).toBe(true);
  });

  it('given the real /proc/stat, when a loop burns CPU, then this process and the system both count it, over every core', () => {
    const clock = { now: () => performance.now(), wallTime: () => new Date() };
    const monitor = new ProcessResourceMonitorAdapter(clock);
    const before = monitor.cpuCounters();
    if (process.platform !== 'linux') return expect(before).toBeNull();
    // Burn 200 ms of this process's CPU time however long a busy machine takes to give it.
    const start = process.cpuUsage();
    const until = performance.now() + 20_000;
    while (process.cpuUsage(start).user < 200_000 && performance.now() < until) for (let i = 0; i < 1e4; i++) Math.sqrt(i);
    const after = monitor.cpuCounters()!;
    expect(after.cores).toBe(os.cpus().length);
    expect(after.processMs - before!.processMs).toBeGreaterThan(150);
    // The system counters tick every 10 ms: they saw at least most of this process's time.
    expect(after.busyMs - before!.busyMs).toBeGreaterThan(100);
    expect(after.stealMs).toBeGreaterThanOrEqual(before!.stealMs);
  });

  it('given a file that is not /proc/stat, then no counters rather than made-up ones', async () => {
    await put('stat', 'intr 1 2 3\n');
    const clock = { now: () => performance.now(), wallTime: () => new Date() };
    expect(new ProcessResourceMonitorAdapter(clock, 'nvidia-smi', join(root, 'stat')).cpuCounters()).toBeNull();
    expect(new ProcessResourceMonitorAdapter(clock, 'nvidia-smi', join(root, 'missing')).cpuCounters()).toBeNull();
  });
});
