import { POLICY_TARGET_MODES, type PolicyTargetMode, type ValidationIssue } from '@maou/bench-domain';
import type { RawBenchmarkTrainingOptions as Raw } from './raw-options';

/** Flags checked against each other or a fixed list, each issue naming its flag. */
export const combinationIssues = (raw: Raw): ValidationIssue[] => [
  ...(raw.optimizerBeta1 !== undefined && raw.optimizerBeta2 !== undefined && raw.optimizerBeta2 <= raw.optimizerBeta1
    ? [
        {
          field: '--optimizer-beta2',
          message: `must be greater than --optimizer-beta1 (got ${raw.optimizerBeta1} and ${raw.optimizerBeta2})`,
        },
      ]
    : []),
  ...(raw.inputCacheMode !== undefined && !['file', 'memory', 'mmap'].includes(raw.inputCacheMode)
    ? [{ field: '--input-cache-mode', message: `must be file, memory or mmap, got '${raw.inputCacheMode}'` }]
    : []),
  ...(raw.policyTargetMode !== undefined && !POLICY_TARGET_MODES.includes(raw.policyTargetMode as PolicyTargetMode)
    ? [
        {
          field: '--policy-target-mode',
          message: `must be ${POLICY_TARGET_MODES.join(', ')}, got '${raw.policyTargetMode}'`,
        },
      ]
    : []),
  // the trace is written by profiling only; maou has no such flag, so there is nothing to stay compatible with
  ...(raw.tracePath !== undefined && !raw.enableProfiling
    ? [
        {
          field: '--trace-path',
          message: 'needs --enable-profiling: the Chrome trace is written only by a profiled run',
        },
      ]
    : []),
];
