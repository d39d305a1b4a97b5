import type { BenchmarkConfig, NullableBlock } from '@maou/bench-domain';

/** What the run produced for each block that may be null. */
export interface ProducedBlocks {
  readonly validation: boolean;
  readonly estimation: boolean;
  readonly resources: boolean;
  readonly profile: boolean;
  readonly io: boolean;
  readonly resourceLimits: boolean;
}

const validationReason = (c: BenchmarkConfig): string => {
  if (!c.runValidation) return '--run-validation not given';
  if (c.stage === 1) return 'Stage 1 has no validation split (as in maou, every row trains)';
  if (c.loader.testRatio === 0)
    return `the validation split is empty: ${c.stage === 2 ? '--stage2-test-ratio' : '--test-ratio'} is 0 (no split)`;
  return 'the validation split yielded no batch (too few validation rows for one batch)';
};

const estimationReason = (c: BenchmarkConfig): string => {
  if (c.sampleRatio === null)
    return '--sample-ratio not given: the data read is the whole dataset, so nothing is scaled';
  return `--sample-ratio only samples cloud sources; ${c.source.label} (${c.source.kind}) read whole, so nothing is scaled`;
};

/** Why each block that is null is null; blocks that were produced get no entry. */
export const nullReasons = (c: BenchmarkConfig, produced: ProducedBlocks): Partial<Record<NullableBlock, string>> => ({
  ...(produced.validation ? {} : { validation_metrics: validationReason(c) }),
  ...(produced.estimation ? {} : { estimation: estimationReason(c) }),
  ...(produced.resources ? {} : { resources: '--enable-resource-monitoring not given' }),
  ...(produced.profile
    ? {}
    : {
        profile: c.enableProfiling
          ? 'no measured batch was left to profile after the warm-up'
          : '--enable-profiling not given',
      }),
  ...(produced.io
    ? {}
    : {
        io: `the ${c.source.kind} source keeps no transfer statistics (only cloud sources download)`,
      }),
  ...(produced.resourceLimits
    ? {}
    : {
        resource_limits:
          'the caller detected no resource limits (the maou command line always does; a library caller passes them in)',
      }),
});
