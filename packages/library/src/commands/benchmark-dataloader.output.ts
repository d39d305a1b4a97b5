import type {
  BenchmarkDataloaderInput,
  BenchmarkDataloaderOutput,
  GridPoint,
  PointResources,
  Recommendation,
} from '@maou/bench-use-cases';
import type { PointsInterruption, ResourceLimitsReport } from '@maou/bench-domain';
import { withSchema } from '../report-schemas/report-schemas';

/** The grid's result, and how long the run waited for other runs in this process (ms). @public */
export type BenchmarkDataloaderResult = BenchmarkDataloaderOutput & {
  readonly environment: { readonly queued_ms: number };
};

/** One loader setting in maou's `all_results` layout, plus our spread, wait and resources. */
export interface DataloaderResultJson {
  readonly num_workers: number;
  readonly prefetch_factor: number | null;
  readonly pin_memory: boolean;
  readonly batch_size: number;
  /** seconds of the timed batches of every repeat (warm-up excluded), maou's `time_taken` */
  readonly time_taken: number;
  /** time_taken ÷ batches_processed, as maou divides them */
  readonly avg_batch_time: number;
  readonly batches_processed: number;
  readonly samples_per_second: GridPoint['samplesPerSecond'];
  readonly p95_wait_ms: number;
  readonly keeps_model_fed: boolean | null;
  readonly resources: PointResources | null;
}

/** The JSON `benchmark-dataloader` writes (maou's keys, then ours); its JSON Schema is generated from this type. */
export interface DataloaderBenchmarkReport {
  readonly benchmark_results: { readonly Summary: string; readonly Recommendations: string; readonly Insights: string };
  readonly optimal_config: Omit<
    DataloaderResultJson,
    'time_taken' | 'batches_processed' | 'samples_per_second' | 'p95_wait_ms' | 'keeps_model_fed' | 'resources'
  > & {
    /** the chosen setting's time_taken, as maou names it here */
    readonly total_time: number;
    readonly samples_per_second: number;
  };
  readonly all_results: readonly DataloaderResultJson[];
  readonly resource_limits: ResourceLimitsReport | null;
  readonly notes: readonly string[];
  readonly null_reasons: Readonly<Record<string, string>>;
  readonly model_samples_per_second: Readonly<Record<string, number | null>>;
  readonly per_batch_size: readonly Recommendation[];
  readonly recommended: Recommendation;
  /** maou's device: `cpu` unless the backend computes on a GPU, then the GPU's name */
  readonly device: string;
  /** the backend's own description of where it computes (e.g. `cpu (WebAssembly SIMD)`) */
  readonly backend_device: string;
  readonly backend: string;
  readonly loader_mode: string;
  readonly dataset: string;
  readonly batch_size: number;
  readonly num_batches: number;
  readonly repeats: number;
  readonly noise_margin: number;
  /** `queued_ms`: milliseconds the run waited for other runs in this process (runs take turns) */
  readonly environment: { readonly queued_ms: number };
  /** set when a stop request ended the grid early: `all_results` are the points measured before it */
  readonly interruption?: PointsInterruption;
}

/** JSON: maou's `benchmark-dataloader` layout, plus the grid, the spread and the model's rate. */
export const dataloaderBenchmarkJson = (
  out: BenchmarkDataloaderResult,
  input: BenchmarkDataloaderInput,
  text: string,
  notes: readonly string[],
): DataloaderBenchmarkReport => {
  const best = out.points.find(
    (p) =>
      p.batchSize === out.recommended.batchSize &&
      p.workers === out.recommended.workers &&
      p.prefetchFactor === out.recommended.prefetchFactor,
  )!;
  const timing = (p: GridPoint) => ({
    time_taken: p.timedMs / 1000,
    avg_batch_time: p.timedBatches > 0 ? p.timedMs / 1000 / p.timedBatches : 0,
  });
  return {
    benchmark_results: {
      Summary: text.split('\nRecommended flags:')[0],
      Recommendations: out.recommended.flags.join('\n'),
      Insights: `basis: ${out.recommended.basis}`,
    },
    optimal_config: {
      num_workers: best.workers,
      prefetch_factor: best.prefetchFactor,
      pin_memory: input.loader.pinMemory,
      batch_size: best.batchSize,
      avg_batch_time: timing(best).avg_batch_time,
      total_time: timing(best).time_taken,
      samples_per_second: best.samplesPerSecond.median,
    },
    all_results: out.points.map((p) => ({
      num_workers: p.workers,
      prefetch_factor: p.prefetchFactor,
      pin_memory: input.loader.pinMemory,
      batch_size: p.batchSize,
      ...timing(p),
      batches_processed: p.timedBatches,
      samples_per_second: p.samplesPerSecond,
      p95_wait_ms: p.p95WaitMs,
      keeps_model_fed: p.keepsModelFed,
      resources: p.resources,
    })),
    resource_limits: out.resourceLimits,
    // notes on the flags, as printed on stderr (e.g. that the embedded sample data was used)
    notes,
    null_reasons: {
      ...(out.points.every((p) => p.resources === null)
        ? { 'all_results[].resources': '--enable-resource-monitoring not given' }
        : {}),
      ...(Object.values(out.consumption).some((c) => c === null)
        ? {
            'model_samples_per_second, all_results[].keeps_model_fed': '--consumption-steps 0: the model was not timed',
          }
        : {}),
    },
    model_samples_per_second: out.consumption,
    per_batch_size: out.perBatchSize,
    recommended: out.recommended,
    device: out.onGpu ? out.device : 'cpu',
    backend_device: out.device,
    backend: out.backend,
    loader_mode: out.loaderMode,
    dataset: out.dataset,
    batch_size: input.loader.batchSize,
    num_batches: input.numBatches,
    repeats: input.repeats,
    noise_margin: input.noiseMargin,
    environment: out.environment,
    ...(out.interruption ? { interruption: out.interruption } : {}),
  };
};

/** What `--output-json` holds when a signal ended the grid: nothing measured is kept. */
export interface InterruptedDataloaderStub {
  readonly command: 'benchmark-dataloader';
  readonly interrupted: true;
  readonly interruption: { readonly reason: string };
}

/** The stub of a grid a signal ended, as written (naming its schema). */
export const interruptedDataloaderStub = (reason: string) =>
  withSchema<InterruptedDataloaderStub>('benchmark-dataloader-report', {
    command: 'benchmark-dataloader',
    interrupted: true,
    interruption: { reason },
  });
