import type { BenchmarkDataloaderInput, BenchmarkDataloaderOutput } from '@maou/bench-app';

const n = (v: number | null | undefined, digits = 0): string => (v === null || v === undefined || !Number.isFinite(v) ? '-' : v.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits }));
const pad = (cells: readonly string[], widths: readonly number[]): string => cells.map((c, i) => c.padStart(widths[i]!)).join('  ');

/** The console table, the recommendation and why. */
export const renderDataloaderBenchmark = (out: BenchmarkDataloaderOutput, input: BenchmarkDataloaderInput): string => {
  const head = ['batch', 'workers', 'prefetch', 'samples/s', 'min..max', 'p95 wait ms', 'model samples/s', 'fed'];
  const rows = out.points.map((p) => [
    String(p.batchSize), String(p.workers), p.prefetchFactor === null ? '-' : String(p.prefetchFactor),
    n(p.samplesPerSecond.median), `${n(p.samplesPerSecond.min)}..${n(p.samplesPerSecond.max)}`, n(p.p95WaitMs, 2),
    n(out.consumption[p.batchSize]), p.keepsModelFed === null ? '-' : p.keepsModelFed ? 'yes' : 'no',
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const r = out.recommended;
  const why = r.basis === 'fed'
    ? `the cheapest setting whose slowest of ${input.repeats} repeats keeps the model (${n(r.modelSamplesPerSecond)} samples/s) fed: worker threads must beat it by ${Math.round(input.noiseMargin * 100)} %, main-thread loading (which adds to every step) must cost under ${Math.round(input.noiseMargin * 100)} % of a step`
    : r.basis === 'loader-bound'
      ? `no setting keeps the model (${n(r.modelSamplesPerSecond)} samples/s) fed: the loader is the bottleneck; the fastest setting is shown`
      : `model not timed (--consumption-steps 0): the cheapest setting within ${Math.round(input.noiseMargin * 100)} % of the fastest`;
  return [
    `DataLoader benchmark: ${out.dataset} (${out.loaderMode}); backend ${out.backend} on ${out.device}; ${input.numBatches} batches × ${input.repeats} repeats per point`,
    '', pad(head, widths), ...rows.map((row) => pad(row, widths)), '',
    'Recommended flags:', r.flags.join(' '), `Why: ${why}.`, '',
  ].join('\n');
};

/** JSON: maou's `benchmark-dataloader` layout, plus the grid, the spread and the model's rate. */
export const dataloaderBenchmarkJson = (out: BenchmarkDataloaderOutput, input: BenchmarkDataloaderInput, text: string): unknown => {
  const best = out.points.find((p) => p.batchSize === out.recommended.batchSize && p.workers === out.recommended.workers && p.prefetchFactor === out.recommended.prefetchFactor)!;
  const secondsPerBatch = (sps: number, b: number): number => b / sps;
  return {
    benchmark_results: { Summary: text.split('\nRecommended flags:')[0], Recommendations: out.recommended.flags.join('\n'), Insights: `basis: ${out.recommended.basis}` },
    optimal_config: {
      num_workers: best.workers, prefetch_factor: best.prefetchFactor, pin_memory: input.loader.pinMemory, batch_size: best.batchSize,
      avg_batch_time: secondsPerBatch(best.samplesPerSecond.median, best.batchSize), samples_per_second: best.samplesPerSecond.median,
    },
    all_results: out.points.map((p) => ({
      num_workers: p.workers, prefetch_factor: p.prefetchFactor, pin_memory: input.loader.pinMemory, batch_size: p.batchSize,
      avg_batch_time: secondsPerBatch(p.samplesPerSecond.median, p.batchSize), batches_processed: input.numBatches * input.repeats,
      samples_per_second: p.samplesPerSecond, p95_wait_ms: p.p95WaitMs, keeps_model_fed: p.keepsModelFed,
    })),
    model_samples_per_second: out.consumption,
    per_batch_size: out.perBatchSize,
    recommended: out.recommended,
    device: out.device, backend: out.backend, loader_mode: out.loaderMode, dataset: out.dataset,
    batch_size: input.loader.batchSize, num_batches: input.numBatches, repeats: input.repeats, noise_margin: input.noiseMargin,
  };
};
