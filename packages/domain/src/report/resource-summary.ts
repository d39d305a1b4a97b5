import type { ResourceSummary } from './benchmark-report';

/** One resource sample as the domain sees it. @public */
export interface ResourcePoint {
  readonly tMs: number;
  readonly cpuPercent: number;
  readonly rssBytes: number;
  readonly heapUsedBytes: number;
  readonly gpuUtilPercent: number | null;
  readonly gpuMemoryBytes: number | null;
  readonly gpuMemoryTotalBytes: number | null;
}

const meanPeak = (xs: readonly number[]): { mean: number; peak: number } => ({
  mean: xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : Number.NaN,
  peak: xs.length ? Math.max(...xs) : Number.NaN,
});

const present = (xs: readonly (number | null)[]): number[] => xs.filter((x): x is number => x !== null);

/** Mean and peak of each sampled quantity, plus the timeline for plots. GPU figures are null where never sampled. @public */
export const summarizeResources = (points: readonly ResourcePoint[], intervalMs: number): ResourceSummary => {
  const gpuUtil = present(points.map((p) => p.gpuUtilPercent));
  const gpuMem = present(points.map((p) => p.gpuMemoryBytes));
  const gpuTotal = present(points.map((p) => p.gpuMemoryTotalBytes));
  return {
    interval_ms: intervalMs,
    samples: points.length,
    cpu_percent: meanPeak(points.map((p) => p.cpuPercent)),
    rss_bytes: meanPeak(points.map((p) => p.rssBytes)),
    heap_used_bytes: meanPeak(points.map((p) => p.heapUsedBytes)),
    gpu_util_percent: gpuUtil.length ? meanPeak(gpuUtil) : null,
    gpu_memory_bytes: gpuMem.length ? meanPeak(gpuMem) : null,
    gpu_memory_total_bytes: gpuTotal.length ? Math.max(...gpuTotal) : null,
    timeline: points.map((p) => ({
      t_ms: p.tMs,
      cpu_percent: p.cpuPercent,
      rss_bytes: p.rssBytes,
      heap_used_bytes: p.heapUsedBytes,
      gpu_util_percent: p.gpuUtilPercent,
    })),
  };
};
