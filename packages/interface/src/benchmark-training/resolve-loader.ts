import * as S from '@maou/bench-domain';
import {
  DEFAULT_POLICY_TARGET_MODE,
  type DataLoaderConfig,
  type DataSourceSpec,
  type PolicyTargetMode,
  type Stage,
} from '@maou/bench-domain';
import type { RawBenchmarkTrainingOptions as Raw } from './raw-options';

/** maou HEAD trains Stage 1 on every row (no validation split) and Stage 2 too unless --stage2-test-ratio is given. */
const testRatioOf = (raw: Raw, stage: Stage): number =>
  stage === 1
    ? 0
    : stage === 2
      ? (raw.stage2TestRatio ?? S.STAGE2_TEST_RATIO.default)
      : (raw.testRatio ?? S.TEST_RATIO.default);

/** The loader block: batch size and workers as the resource plan decided them, the rest from the loader flags. */
export const resolveLoader = (
  raw: Raw,
  run: { readonly stage: Stage; readonly seed: number; readonly source: DataSourceSpec },
  plan: { readonly batchSize: number; readonly workers: number },
): DataLoaderConfig => ({
  batchSize: plan.batchSize,
  workers: plan.workers,
  prefetchFactor: raw.prefetchFactor ?? S.PREFETCH_FACTOR.default,
  pinMemory: raw.pinMemory ?? false,
  persistentWorkers: true,
  streaming: run.source.streamable && run.stage !== 1 && (raw.streaming ?? true),
  shuffle: true,
  testRatio: testRatioOf(raw, run.stage),
  cacheMode: raw.inputCacheMode === 'memory' ? 'memory' : 'file',
  devicePrefetch: raw.devicePrefetch ?? S.DEVICE_PREFETCH.default,
  seed: run.seed,
  // Stages 1 and 2 have no policy target; maou ignores the flag there too.
  ...(run.stage === 3
    ? { policyTargetMode: (raw.policyTargetMode as PolicyTargetMode | undefined) ?? DEFAULT_POLICY_TARGET_MODE }
    : {}),
});
