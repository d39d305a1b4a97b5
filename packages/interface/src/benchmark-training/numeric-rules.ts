import type { ValidationIssue } from '@maou/bench-domain';
import type { RawBenchmarkTrainingOptions } from './raw-options';

type NumericKey = { [K in keyof RawBenchmarkTrainingOptions]-?: RawBenchmarkTrainingOptions[K] extends number | undefined ? K : never }[keyof RawBenchmarkTrainingOptions];

interface NumericRule {
  readonly key: NumericKey;
  readonly integer?: boolean;
  readonly test: (v: number) => boolean;
  readonly expect: string;
}

const positive = (v: number): boolean => v > 0;
const nonNegative = (v: number): boolean => v >= 0;
const open01 = (v: number): boolean => v > 0 && v < 1;

/** Every numeric range, checked before any data or network is touched. */
export const NUMERIC_RULES: readonly NumericRule[] = [
  { key: 'stage', integer: true, test: (v) => v >= 1 && v <= 3, expect: 'must be 1, 2 or 3' },
  { key: 'testRatio', test: open01, expect: 'must be between 0 and 1 (exclusive)' },
  { key: 'batchSize', integer: true, test: positive, expect: 'must be a positive integer' },
  { key: 'dataloaderWorkers', integer: true, test: nonNegative, expect: 'must be a non-negative integer' },
  { key: 'prefetchFactor', integer: true, test: positive, expect: 'must be a positive integer' },
  { key: 'devicePrefetch', integer: true, test: nonNegative, expect: 'must be a non-negative integer (0 turns device prefetch off)' },
  // Each wasm thread is a whole replica (its own heap and copy of the network): past 64 that is a typo, not a plan.
  { key: 'threads', integer: true, test: (v) => v >= 1 && v <= 64, expect: 'must be an integer from 1 to 64' },
  { key: 'gceParameter', test: (v) => v > 0 && v <= 1, expect: 'must be in (0, 1]' },
  { key: 'policyLossRatio', test: positive, expect: 'must be positive' },
  { key: 'valueLossRatio', test: positive, expect: 'must be positive' },
  { key: 'learningRatio', test: positive, expect: 'must be positive' },
  { key: 'momentum', test: (v) => v >= 0 && v <= 1, expect: 'must be between 0 and 1' },
  { key: 'weightDecay', test: nonNegative, expect: 'must be non-negative' },
  { key: 'optimizerBeta1', test: open01, expect: 'must be between 0 and 1 (exclusive)' },
  { key: 'optimizerBeta2', test: open01, expect: 'must be between 0 and 1 (exclusive)' },
  { key: 'optimizerEps', test: positive, expect: 'must be positive' },
  { key: 'gradientClip', test: nonNegative, expect: 'must be non-negative (0 turns clipping off)' },
  { key: 'gradientAccumulationSteps', integer: true, test: positive, expect: 'must be a positive integer' },
  { key: 'stage1PosWeight', test: positive, expect: 'must be positive' },
  { key: 'stage2PosWeight', test: positive, expect: 'must be positive' },
  { key: 'stage2GammaPos', test: nonNegative, expect: 'must be non-negative' },
  { key: 'stage2GammaNeg', test: nonNegative, expect: 'must be non-negative' },
  { key: 'stage2Clip', test: (v) => v >= 0 && v < 1, expect: 'must be in [0, 1)' },
  { key: 'stage2HiddenDim', integer: true, test: nonNegative, expect: 'must be a non-negative integer (0 = a single linear head)' },
  { key: 'stage2HeadDropout', test: (v) => v >= 0 && v < 1, expect: 'must be in [0, 1)' },
  { key: 'stage2TestRatio', test: (v) => v >= 0 && v < 1, expect: 'must be in [0, 1) (0 = no split)' },
  { key: 'warmupBatches', integer: true, test: nonNegative, expect: 'must be a non-negative integer' },
  { key: 'maxBatches', integer: true, test: positive, expect: 'must be a positive integer (use --full-epoch for a whole epoch)' },
  { key: 'targetPrecision', test: (v) => v >= 0 && v < 1, expect: 'must be in [0, 1) (0.05 = ±5 %; 0 never stops early)' },
  { key: 'timeBudget', test: positive, expect: 'must be a positive number of seconds' },
  { key: 'sampleRatio', test: (v) => v >= 0.01 && v <= 1, expect: 'must be between 0.01 and 1.0' },
  { key: 'inputBatchSize', integer: true, test: positive, expect: 'must be a positive integer' },
  { key: 'inputMaxCachedBytes', integer: true, test: positive, expect: 'must be a positive integer' },
  { key: 'inputBundleSizeGb', test: positive, expect: 'must be positive' },
  { key: 'inputMaxWorkers', integer: true, test: positive, expect: 'must be a positive integer' },
  { key: 'samplePositions', integer: true, test: (v) => v >= 16, expect: 'must be an integer of at least 16' },
  { key: 'seed', integer: true, test: nonNegative, expect: 'must be a non-negative integer' },
];

/** `stage2HiddenDim` → `--stage2-hidden-dim`. */
export const flagOf = (key: string): string => `--${key.replace(/[A-Z]/g, (m) => `-${m.toLowerCase()}`)}`;

/** Checks every present numeric option against its rule. */
export const checkNumbers = (raw: RawBenchmarkTrainingOptions): ValidationIssue[] =>
  NUMERIC_RULES.flatMap(({ key, integer, test, expect }) => {
    const v = raw[key];
    if (v === undefined) return [];
    const bad = typeof v !== 'number' || Number.isNaN(v) || (integer && !Number.isInteger(v)) || !test(v);
    return bad ? [{ field: flagOf(key), message: `${expect}, got ${String(v)}` }] : [];
  });
