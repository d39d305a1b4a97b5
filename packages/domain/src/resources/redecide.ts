import type { BenchmarkConfig } from '../config/benchmark-config';
import type { ResourceDecision, ResourceLimitsReport } from '../report/benchmark-report';

/** A later decision on one setting: calibration's choice, an out-of-memory retry, a sweep point, the backend. @public */
export type LaterDecision = Omit<ResourceDecision, 'replaced'> & {
  readonly origin: 'calibration' | 'out-of-memory' | 'study' | 'backend';
  readonly value: number;
};

/**
 * Records a later decision over the plan's (the earlier one kept as `replaced`); a decision that keeps the value
 * changes nothing. The plan stays the one record of what the run used.
 * @public
 */
export const redecide = (limits: ResourceLimitsReport, next: LaterDecision): ResourceLimitsReport => {
  const prior = limits.decisions.find((d) => d.setting === next.setting);
  if (prior?.value === next.value) return limits;
  const decision: ResourceDecision = { ...next, ...(prior ? { replaced: prior } : {}) };
  return {
    ...limits,
    decisions: prior ? limits.decisions.map((d) => (d === prior ? decision : d)) : [...limits.decisions, decision],
  };
};

/**
 * Applies later decisions to the run and to its plan at once, so the configuration that runs and the report's
 * `resource_limits` cannot differ; without a plan (a caller that gave none), to the configuration alone.
 * @public
 */
export const settleDecisions = (
  config: BenchmarkConfig,
  limits: ResourceLimitsReport | undefined,
  later: readonly LaterDecision[],
): { readonly config: BenchmarkConfig; readonly limits: ResourceLimitsReport | undefined } => {
  const value = (setting: ResourceDecision['setting']): number | undefined =>
    later.filter((d) => d.setting === setting).at(-1)?.value;
  const batchSize = value('batch_size');
  const workers = value('workers');
  const threads = value('threads');
  return {
    config: {
      ...config,
      loader: {
        ...config.loader,
        ...(batchSize !== undefined ? { batchSize } : {}),
        ...(workers !== undefined ? { workers } : {}),
      },
      compute: { ...config.compute, ...(threads !== undefined ? { threads } : {}) },
    },
    limits: limits && later.reduce(redecide, limits),
  };
};
