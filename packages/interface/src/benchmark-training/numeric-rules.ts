import {
  BATCH_SIZE,
  DEVICE_PREFETCH,
  LOADER_WORKERS,
  PREFETCH_FACTOR,
  THREADS,
  type ValidationIssue,
} from '@maou/bench-domain';
import type { RawBenchmarkTrainingOptions } from './raw-options';

type NumericKey = {
  [K in keyof RawBenchmarkTrainingOptions]-?: RawBenchmarkTrainingOptions[K] extends number | undefined ? K : never;
}[keyof RawBenchmarkTrainingOptions];

interface NumericRule {
  readonly key: NumericKey;
  readonly integer?: boolean;
  readonly test: (v: number) => boolean;
  readonly expect: string;
}

const open01 = (v: number): boolean => v > 0 && v < 1;
const upTo =
  (max: number, min = 0, minOpen = true) =>
  (v: number): boolean =>
    (minOpen ? v > min : v >= min) && v <= max;

// Upper bounds are where a value stops being a plan and becomes a typo: a batch past 65,536 rows does not fit a
// device, 1e12 workers or accumulation steps never run, and Infinity loss weights only make NaN losses.

/** Every numeric range, checked before any data or network is touched. */
export const NUMERIC_RULES: readonly NumericRule[] = [
  { key: 'stage', integer: true, test: (v) => v >= 1 && v <= 3, expect: 'must be 1, 2 or 3' },
  { key: 'testRatio', test: open01, expect: 'must be between 0 and 1 (exclusive)' },
  {
    key: 'batchSize',
    integer: true,
    test: upTo(BATCH_SIZE.bounds.max, BATCH_SIZE.bounds.min, false),
    expect: `must be an integer from ${BATCH_SIZE.bounds.min} to ${BATCH_SIZE.bounds.max.toLocaleString('en-US')}`,
  },
  {
    key: 'dataloaderWorkers',
    integer: true,
    test: upTo(LOADER_WORKERS.bounds.max, LOADER_WORKERS.bounds.min, false),
    expect: `must be an integer from ${LOADER_WORKERS.bounds.min} to ${LOADER_WORKERS.bounds.max}`,
  },
  {
    key: 'prefetchFactor',
    integer: true,
    test: upTo(PREFETCH_FACTOR.bounds.max, PREFETCH_FACTOR.bounds.min, false),
    expect: `must be an integer from ${PREFETCH_FACTOR.bounds.min} to ${PREFETCH_FACTOR.bounds.max}`,
  },
  {
    key: 'devicePrefetch',
    integer: true,
    test: upTo(DEVICE_PREFETCH.bounds.max, DEVICE_PREFETCH.bounds.min, false),
    expect: `must be an integer from ${DEVICE_PREFETCH.bounds.min} to ${DEVICE_PREFETCH.bounds.max} (0 turns device prefetch off)`,
  },
  // Each wasm thread is a whole replica (its own heap and copy of the network): past 64 that is a typo, not a plan.
  {
    key: 'threads',
    integer: true,
    test: upTo(THREADS.bounds.max, THREADS.bounds.min, false),
    expect: `must be an integer from ${THREADS.bounds.min} to ${THREADS.bounds.max}`,
  },
  { key: 'gceParameter', test: (v) => v > 0 && v <= 1, expect: 'must be in (0, 1]' },
  { key: 'policyLossRatio', test: upTo(1000), expect: 'must be positive, at most 1000' },
  { key: 'valueLossRatio', test: upTo(1000), expect: 'must be positive, at most 1000' },
  { key: 'learningRatio', test: upTo(10), expect: 'must be positive, at most 10' },
  { key: 'momentum', test: (v) => v >= 0 && v <= 1, expect: 'must be between 0 and 1' },
  { key: 'weightDecay', test: upTo(10, 0, false), expect: 'must be from 0 to 10' },
  { key: 'optimizerBeta1', test: open01, expect: 'must be between 0 and 1 (exclusive)' },
  { key: 'optimizerBeta2', test: open01, expect: 'must be between 0 and 1 (exclusive)' },
  { key: 'optimizerEps', test: upTo(1), expect: 'must be positive, at most 1' },
  { key: 'gradientClip', test: upTo(1e6, 0, false), expect: 'must be from 0 to 1,000,000 (0 turns clipping off)' },
  { key: 'gradientAccumulationSteps', integer: true, test: upTo(1024), expect: 'must be an integer from 1 to 1024' },
  { key: 'stage1PosWeight', test: upTo(1e6), expect: 'must be positive, at most 1,000,000' },
  { key: 'stage2PosWeight', test: upTo(1e6), expect: 'must be positive, at most 1,000,000' },
  { key: 'stage2GammaPos', test: upTo(100, 0, false), expect: 'must be from 0 to 100' },
  { key: 'stage2GammaNeg', test: upTo(100, 0, false), expect: 'must be from 0 to 100' },
  { key: 'stage2Clip', test: (v) => v >= 0 && v < 1, expect: 'must be in [0, 1)' },
  {
    key: 'stage2HiddenDim',
    integer: true,
    test: upTo(65_536, 0, false),
    expect: 'must be an integer from 0 to 65,536 (0 = a single linear head)',
  },
  { key: 'stage2HeadDropout', test: (v) => v >= 0 && v < 1, expect: 'must be in [0, 1)' },
  { key: 'stage2TestRatio', test: (v) => v >= 0 && v < 1, expect: 'must be in [0, 1) (0 = no split)' },
  { key: 'warmupBatches', integer: true, test: upTo(1e6, 0, false), expect: 'must be an integer from 0 to 1,000,000' },
  // One batch has no spread, so no interval could be given; maou accepted 1 and timed that single batch.
  {
    key: 'maxBatches',
    integer: true,
    test: upTo(1e9, 2, false),
    expect:
      'must be an integer from 2 to 1,000,000,000: a batch time with an interval needs 2 measured batches (use --full-epoch for a whole epoch)',
  },
  {
    key: 'targetPrecision',
    test: (v) => v >= 0 && v < 1,
    expect: 'must be in [0, 1) (0.05 = ±5 %; 0 never stops early)',
  },
  {
    key: 'timeBudget',
    test: upTo(7 * 86_400),
    expect: 'must be a positive number of seconds, at most a week (604,800)',
  },
  { key: 'sampleRatio', test: (v) => v >= 0.01 && v <= 1, expect: 'must be between 0.01 and 1.0' },
  { key: 'seed', integer: true, test: upTo(2 ** 32 - 1, 0, false), expect: 'must be an integer from 0 to 2^32 - 1' },
];

/** `stage2HiddenDim` → `--stage2-hidden-dim`. */
export const flagOf = (key: string): string => `--${key.replace(/[A-Z]/g, (m) => `-${m.toLowerCase()}`)}`;

/** Checks every present numeric option against its rule; NaN and ±Infinity never pass. */
export const checkNumbers = (raw: RawBenchmarkTrainingOptions): ValidationIssue[] =>
  NUMERIC_RULES.flatMap(({ key, integer, test, expect }) => {
    const v = raw[key];
    if (v === undefined) return [];
    const bad = typeof v !== 'number' || !Number.isFinite(v) || (integer && !Number.isInteger(v)) || !test(v);
    return bad ? [{ field: flagOf(key), message: `${expect}, got ${String(v)}` }] : [];
  });
