import * as S from '@maou/bench-domain';
import type { BenchmarkConfig } from '@maou/bench-domain';
import type { RawBenchmarkTrainingOptions as Raw } from './raw-options';

/** How long to measure: warm-up, the batch cap (none for a full epoch) and the stopping rule. */
export const resolveTiming = (raw: Raw): Pick<BenchmarkConfig, 'warmupBatches' | 'maxBatches' | 'stopping'> => ({
  warmupBatches: raw.warmupBatches ?? S.WARMUP_BATCHES.default,
  maxBatches: raw.fullEpoch ? null : (raw.maxBatches ?? S.MAX_BATCHES.default),
  ...(raw.fullEpoch
    ? {}
    : {
        stopping: {
          targetPrecision: raw.targetPrecision ?? S.TARGET_PRECISION.default,
          timeBudgetMs: (raw.timeBudget ?? S.TIME_BUDGET.default) * 1000,
          capGiven: raw.maxBatches !== undefined,
        },
      }),
});

/** What the run adds to the report and how it samples: validation, sampling, profiling, monitoring, compilation. */
export const resolveOutputs = (
  raw: Raw,
): Pick<
  BenchmarkConfig,
  'runValidation' | 'sampleRatio' | 'enableProfiling' | 'enableResourceMonitoring' | 'compilation'
> => ({
  runValidation: raw.runValidation ?? false,
  sampleRatio: raw.sampleRatio ?? null,
  enableProfiling: raw.enableProfiling ?? false,
  enableResourceMonitoring: raw.enableResourceMonitoring ?? false,
  compilation: raw.compilation ?? false,
});
