import type { BenchmarkDataloaderInput, BenchmarkDataloaderOutput, GridPoint } from '@maou/bench-use-cases';
import { alignedTable, formatNumber as n } from './console-text';
import { sampleDataNote } from './sample-data-note';

/** The console table, the recommendation and why. */
export const renderDataloaderBenchmark = (out: BenchmarkDataloaderOutput, input: BenchmarkDataloaderInput): string => {
  const monitored = out.points.some((p) => p.resources !== null);
  const head = [
    'batch',
    'workers',
    'prefetch',
    'samples/s',
    'min..max',
    'p95 wait ms',
    'model samples/s',
    'fed',
    ...(monitored ? ['busy %', 'cache hit %', 'CPU %', 'RSS MiB', 'GPU %'] : []),
  ];
  const rows = out.points.map((p) => [
    String(p.batchSize),
    String(p.workers),
    p.prefetchFactor === null ? '-' : String(p.prefetchFactor),
    n(p.samplesPerSecond.median),
    `${n(p.samplesPerSecond.min)}..${n(p.samplesPerSecond.max)}`,
    n(p.p95WaitMs, 2),
    n(out.consumption[p.batchSize]),
    p.keepsModelFed === null ? '-' : p.keepsModelFed ? 'yes' : 'no',
    ...(monitored ? resourceCells(p.resources) : []),
  ]);
  const r = out.recommended;
  const why =
    r.basis === 'fed'
      ? `the cheapest setting whose slowest of ${input.repeats} repeats keeps the model (${n(r.modelSamplesPerSecond)} samples/s) fed: worker threads must beat it by ${Math.round(input.noiseMargin * 100)} %, main-thread loading (which adds to every step) must cost under ${Math.round(input.noiseMargin * 100)} % of a step`
      : r.basis === 'loader-bound'
        ? `no setting keeps the model (${n(r.modelSamplesPerSecond)} samples/s) fed: the loader is the bottleneck; the fastest setting is shown`
        : `model not timed (--consumption-steps 0): the cheapest setting within ${Math.round(input.noiseMargin * 100)} % of the fastest`;
  const limits = out.resourceLimits;
  return [
    ...(input.source.synthetic ? [sampleDataNote(input.stage, out.dataset), ''] : []),
    ...(limits
      ? [
          `Resource limits: cgroup ${limits.cgroup}, ${limits.cpu_cores} usable core(s), ${(limits.memory_bytes / 2 ** 30).toFixed(1)} GiB; ${limits.decisions.map((d) => `${d.setting} ${d.value ?? 'none'} (${d.origin})`).join(', ')}`,
        ]
      : []),
    `DataLoader benchmark: ${out.dataset} (${out.loaderMode}); backend ${out.backend} on ${out.device}; ${input.numBatches} batches × ${input.repeats} repeats per point`,
    '',
    ...alignedTable(head, rows),
    '',
    'Recommended flags:',
    r.flags.join(' '),
    `Why: ${why}.`,
    '',
    ...(monitored
      ? [
          'busy %: mean event-loop busy share of the loading threads (worker efficiency); cache hit %: map-style shard lookups already decoded; CPU % of this process, 100 = one core.',
          '',
        ]
      : []),
  ].join('\n');
};

const resourceCells = (r: GridPoint['resources']): string[] => {
  if (!r) return ['-', '-', '-', '-', '-'];
  const pct = (x: number | null): string => (x === null ? '-' : n(100 * x));
  return [
    pct(r.worker_efficiency),
    pct(r.cache_hit_rate),
    n(r.process_cpu_percent.mean),
    n(r.rss_bytes.peak / 2 ** 20),
    r.gpu_util_percent ? n(r.gpu_util_percent.mean) : '-',
  ];
};
