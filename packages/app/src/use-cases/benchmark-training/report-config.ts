import type { BenchmarkConfig } from '@maou/bench-domain';

/** The configuration as a flat record for the report; cloud credentials never live in the config. */
export const flattenConfig = (c: BenchmarkConfig): Record<string, unknown> => ({
  stage: c.stage,
  source: c.source.kind,
  // What the source's plug-in said about it, so a report is rendered without knowing the kinds.
  source_sampled: c.source.sampled,
  source_synthetic: c.source.synthetic ?? false,
  ...Object.fromEntries(Object.entries(c.loader).map(([k, v]) => [`loader.${k}`, v])),
  ...Object.fromEntries(Object.entries(c.training).map(([k, v]) => [`training.${k}`, v])),
  'compute.backend': c.compute.backend,
  'compute.threads': c.compute.threads,
  warmup_batches: c.warmupBatches,
  max_batches: c.maxBatches,
  // false: maou's default cap, which bounds validation and the maou block while the stopping rule decides the rest
  max_batches_given: c.stopping?.capGiven ?? c.maxBatches !== null,
  target_precision: c.stopping?.targetPrecision ?? null,
  time_budget_s: c.stopping ? c.stopping.timeBudgetMs / 1000 : null,
  run_validation: c.runValidation,
  sample_ratio: c.sampleRatio,
  enable_profiling: c.enableProfiling,
  enable_resource_monitoring: c.enableResourceMonitoring,
});
