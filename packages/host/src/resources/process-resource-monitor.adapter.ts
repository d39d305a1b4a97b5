import { readFileSync } from 'node:fs';
import type { ClockPort, CpuCounters, ResourceMonitorPort, ResourceSample } from '@maou/bench-use-cases';
import { queryGpu, type GpuReading } from './gpu-query';

/**
 * Samples this process's CPU % (all threads, so 200 % = two busy cores), RSS and heap on a fixed interval, plus GPU
 * utilisation, used and total memory from `nvidia-smi` when it exists. The GPU query runs in the background and each sample
 * carries the latest reading, so a slow `nvidia-smi` never delays the interval.
 * @public
 */
export class ProcessResourceMonitorAdapter implements ResourceMonitorPort {
  private timer: NodeJS.Timeout | null = null;
  private samples: ResourceSample[] = [];
  private gpu: GpuReading | null = null;
  private gpuAvailable = true;
  private gpuPending: Promise<void> | null = null;
  private last = { cpu: process.cpuUsage(), t: 0 };

  constructor(
    private readonly clock: ClockPort,
    private readonly nvidiaSmi = 'nvidia-smi',
    private readonly procStat = '/proc/stat',
  ) {}

  /** This process's CPU time (all threads) and the system's busy and steal time from /proc/stat (USER_HZ = 100). */
  cpuCounters(): CpuCounters | null {
    let text: string;
    try {
      text = readFileSync(this.procStat, 'utf8');
    } catch {
      return null;
    }
    const lines = text.split('\n');
    const total = lines[0]?.split(/\s+/);
    if (total?.[0] !== 'cpu' || total.length < 9) return null; // /proc/stat's line: not a plug-in name
    const [user, nice, system, , , irq, softirq, steal] = total.slice(1, 9).map((v) => Number(v) * 10);
    const cores = lines.filter((l) => /^cpu\d/.test(l)).length;
    const own = process.cpuUsage();
    return {
      processMs: (own.user + own.system) / 1000,
      busyMs: user! + nice! + system! + irq! + softirq!,
      stealMs: steal!,
      cores,
    };
  }

  start(intervalMs: number): void {
    if (this.timer) return;
    this.samples = [];
    this.last = { cpu: process.cpuUsage(), t: this.clock.now() };
    this.refreshGpu();
    this.timer = setInterval(() => this.sample(), intervalMs);
  }

  async stop(): Promise<readonly ResourceSample[]> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.gpuPending;
    this.sample();
    return this.samples;
  }

  private sample(): void {
    const t = this.clock.now();
    const cpu = process.cpuUsage();
    const usedMs = (cpu.user - this.last.cpu.user + cpu.system - this.last.cpu.system) / 1000;
    const cpuPercent = t > this.last.t ? (100 * usedMs) / (t - this.last.t) : 0;
    this.last = { cpu, t };
    const mem = process.memoryUsage();
    this.samples.push({
      tMs: t,
      cpuPercent,
      rssBytes: mem.rss,
      heapUsedBytes: mem.heapUsed,
      gpuUtilPercent: this.gpu?.utilPercent ?? null,
      gpuMemoryBytes: this.gpu?.memoryBytes ?? null,
      gpuMemoryTotalBytes: this.gpu?.memoryTotalBytes ?? null,
    });
    this.refreshGpu();
  }

  private refreshGpu(): void {
    // One query at a time; once nvidia-smi is missing it is not asked again.
    if (!this.gpuAvailable || this.gpuPending) return;
    this.gpuPending = queryGpu(this.nvidiaSmi).then((r) => {
      if (r === null && this.gpu === null) this.gpuAvailable = false;
      this.gpu = r;
      this.gpuPending = null;
    });
  }
}
