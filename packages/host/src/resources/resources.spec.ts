import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryLogger } from '@maou/bench-use-cases/testing';
import { readCgroupLimits } from './cgroup-limits';
import { deriveSettings, planResources, usableResources } from '@maou/bench-domain';
import { ProcessResourceMonitorAdapter } from './process-resource-monitor.adapter';
import { ResourceDetectorAdapter, logResourcePlan } from './resource-detector.adapter';

const GIB = 1024 ** 3;
let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'maou-cgroup-'));
});
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

  it('given a v2 host where this process sits in a nested cgroup, when read, then the limits on its path are found and the tightest wins', async () => {
    // The v2 root cgroup has no cpu.max or memory.max: limits live on the process's own cgroup and its parents.
    await put('cgroup.controllers', 'cpu memory');
    await put('user.slice/memory.max', `${2 * GIB}`);
    await put('user.slice/app.scope/memory.max', 'max');
    await put('user.slice/app.scope/cpu.max', '150000 100000');
    await put('self-cgroup', '0::/user.slice/app.scope\n');
    expect(await readCgroupLimits(root, join(root, 'self-cgroup'))).toEqual({
      version: 'v2',
      cpuQuotaCores: 1.5,
      memoryLimitBytes: 2 * GIB,
    });
  });

  it('given v1 with this process in a nested cgroup, when read, then its own limit counts; a host path absent under the mount (a container) falls back to the mount root', async () => {
    await put('cpu,cpuacct/cpu.cfs_quota_us', '-1');
    await put('memory/memory.limit_in_bytes', '9223372036854771712');
    await put('memory/jobs/42/memory.limit_in_bytes', `${3 * GIB}`);
    await put('cpu,cpuacct/jobs/42/cpu.cfs_quota_us', '100000');
    await put('self-cgroup', '4:memory:/jobs/42\n2:cpu,cpuacct:/jobs/42\n1:name=systemd:/\n');
    expect(await readCgroupLimits(root, join(root, 'self-cgroup'))).toEqual({
      version: 'v1',
      cpuQuotaCores: 1,
      memoryLimitBytes: 3 * GIB,
    });
    await put('memory/memory.limit_in_bytes', `${GIB}`);
    await put('self-cgroup', '4:memory:/docker/0123abcd\n');
    expect(await readCgroupLimits(root, join(root, 'self-cgroup'))).toEqual({
      version: 'v1',
      cpuQuotaCores: null,
      memoryLimitBytes: GIB,
    });
  });

  it('given no cgroup files or garbage, when read, then it falls back to no limits', async () => {
    expect(await readCgroupLimits(join(root, 'absent'))).toEqual({
      version: 'none',
      cpuQuotaCores: null,
      memoryLimitBytes: null,
    });
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
    [1, 16, 1, 0, null],
    [2, 16, 2, 1, null],
    [4, 16, 3, 2, null],
    [16, 16, 8, 2, null],
    [4, 1.5, 3, 0, 128],
    [4, 0.5, 3, 0, 64],
  ])('given %i cores and %f GiB, then threads %i, workers %i, batch cap %p', (cores, gib, threads, workers, cap) => {
    const r = usableResources({ version: 'none', cpuQuotaCores: null, memoryLimitBytes: null }, cores, gib * GIB);
    expect(deriveSettings(r)).toEqual({ threads, workers, maxBatchSize: cap });
  });
});

describe('ResourceDetectorAdapter', () => {
  it('given cgroup v2 limits and explicit user settings, when planned and logged, then the user wins, and the limits and every decision are logged once as key=value', async () => {
    await put('cpu.max', '400000 100000');
    await put('memory.max', `${3 * GIB}`);
    const logger = new MemoryLogger();
    const detector = new ResourceDetectorAdapter(root, { affinityCpus: 8, memoryBytes: 64 * GIB });
    // infra measures, the domain decides
    const plan = planResources(await detector.detect(), { threads: 1, batchSize: 512 });
    expect(plan).toMatchObject({ threads: 1, workers: 2, batchSize: 512, derived: { threads: 3, maxBatchSize: 256 } });
    expect(plan.report).toMatchObject({
      cgroup: 'v2',
      cpu_quota_cores: 4,
      affinity_cpus: 8,
      cpu_cores: 4,
      memory_bytes: 3 * GIB,
    });
    expect(plan.report.decisions.map((d) => [d.setting, d.value, d.origin])).toEqual([
      ['threads', 1, 'user'],
      ['workers', 2, 'derived'],
      ['batch_size', 512, 'user'],
    ]);
    expect(logger.lines).toHaveLength(0);
    logResourcePlan(plan, logger);
    const msgs = logger.lines.map((l) => l.msg);
    expect(msgs[0]).toBe('resource_limits cgroup=v2 cpu_quota=4 affinity_cpus=8 cpu_cores=4 memory_mb=3072');
    expect(msgs.slice(1)).toEqual([
      'resource_decision setting=threads value=1 origin=user reason="--threads given (the limits suggest 3)"',
      expect.stringMatching(
        /^resource_decision setting=workers value=2 origin=derived reason="4 usable core\(s\), 3.0 GiB: /,
      ),
      'resource_decision setting=batch_size value=512 origin=user reason="--batch-size given, above the 256 that 3.0 GiB suggests"',
    ]);
  });

  it("given --stageN-batch-size, when planned, then it decides the batch at its stage over --batch-size (with the memory cap's note) and not at the others", async () => {
    await put('memory.max', `${3 * GIB}`);
    const host = await new ResourceDetectorAdapter(root, { affinityCpus: 2, memoryBytes: 64 * GIB }).detect();
    const given = { batchSize: 64, stage1BatchSize: 512, stage2BatchSize: 32 };
    const batchAt = (stage: number) => planResources(host, { ...given, stage }).report.decisions[2];
    expect(batchAt(1)).toEqual({
      setting: 'batch_size',
      value: 512,
      origin: 'user',
      reason: '--stage1-batch-size given, above the 256 that 3.0 GiB suggests',
    });
    expect(batchAt(2)).toMatchObject({ value: 32, reason: '--stage2-batch-size given' });
    expect(batchAt(3)).toMatchObject({ value: 64, reason: '--batch-size given' });
    expect(planResources(host, { ...given, stage: 1 }).batchSize).toBe(512);
  });

  it('given 1.5 GiB and no batch size, when planned, then the memory cap replaces the default batch and says why', async () => {
    await put('memory.max', `${1.5 * GIB}`);
    const plan = planResources(
      await new ResourceDetectorAdapter(root, { affinityCpus: 2, memoryBytes: 64 * GIB }).detect(),
      {},
    );
    expect(plan).toMatchObject({ threads: 2, workers: 0, batchSize: 128 });
    expect(plan.report.decisions[2]).toEqual({
      setting: 'batch_size',
      value: 128,
      origin: 'derived',
      reason: '1.5 GiB of memory caps the batch at 128 (default 256)',
    });
  });
});

describe('ProcessResourceMonitorAdapter', () => {
  it('given a fake nvidia-smi, when sampling, then CPU, RSS, heap and GPU figures are recorded; absent nvidia-smi gives null', async () => {
    const clock = { now: () => performance.now(), wallTime: () => new Date() };
    const smi = join(root, 'nvidia-smi');
    await writeFile(smi, '#!/bin/sh\necho "37, 1024, 81559"\n');
    await chmod(smi, 0o755);
    const withGpu = new ProcessResourceMonitorAdapter(clock, smi);
    withGpu.start(20);
    const until = performance.now() + 120;
    while (performance.now() < until) Math.sqrt(Math.random());
    await new Promise((r) => setTimeout(r, 60));
    const samples = await withGpu.stop();
    expect(samples.length).toBeGreaterThanOrEqual(3);
    expect(Math.max(...samples.map((s) => s.cpuPercent))).toBeGreaterThan(10);
    expect(samples.at(-1)).toMatchObject({
      gpuUtilPercent: 37,
      gpuMemoryBytes: 1024 * 2 ** 20,
      gpuMemoryTotalBytes: 81559 * 2 ** 20,
    });
    expect(samples[0]!.rssBytes).toBeGreaterThan(samples[0]!.heapUsedBytes);
    const noGpu = new ProcessResourceMonitorAdapter(clock, join(root, 'no-such-smi'));
    noGpu.start(20);
    await new Promise((r) => setTimeout(r, 60));
    expect(
      (await noGpu.stop()).every(
        (s) => s.gpuUtilPercent === null && s.gpuMemoryBytes === null && s.gpuMemoryTotalBytes === null,
      ),
    ).toBe(true);
  });

  it('given the real /proc/stat, when a loop burns CPU, then this process and the system both count it, over every core', () => {
    const clock = { now: () => performance.now(), wallTime: () => new Date() };
    const monitor = new ProcessResourceMonitorAdapter(clock);
    const before = monitor.cpuCounters();
    if (process.platform !== 'linux') return expect(before).toBeNull();
    // Burn 200 ms of this process's CPU time however long a busy machine takes to give it.
    const start = process.cpuUsage();
    const until = performance.now() + 20_000;
    while (process.cpuUsage(start).user < 200_000 && performance.now() < until)
      for (let i = 0; i < 1e4; i++) Math.sqrt(i);
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
