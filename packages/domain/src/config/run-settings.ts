import type { Setting } from './setting';

// How long and on what a run measures, and the dataloader grid's knobs.

/** `--stage`: 1 reachable squares, 2 legal moves, 3 policy + value. @public */
export const STAGE = {
  flag: '--stage',
  default: 3,
  bounds: { min: 1, max: 3, integer: true },
} as const satisfies Setting;
/** `--seed`: splits, shuffles, weights, sample data and cloud sampling. @public */
export const SEED = {
  flag: '--seed',
  default: 1,
  bounds: { min: 0, max: 2 ** 32 - 1, integer: true },
} as const satisfies Setting;
/** `--sample-ratio`: share of cloud objects sampled; absent = all. @public */
export const SAMPLE_RATIO: Setting = { flag: '--sample-ratio', bounds: { min: 0.01, max: 1 } };
/** @public */
export const WARMUP_BATCHES = {
  flag: '--warmup-batches',
  default: 10,
  bounds: { min: 0, max: 1e6, integer: true },
} as const satisfies Setting;
/**
 * `--max-batches`: absent, the stopping rule decides, and maou's 100 still bounds validation; one batch has no spread,
 * so no interval could be given (maou accepted 1 and timed that single batch).
 * @public
 */
export const MAX_BATCHES = {
  flag: '--max-batches',
  default: 100,
  bounds: { min: 2, max: 1e9, integer: true },
} as const satisfies Setting;
/** `--target-precision`: 0.05 = ±5 %; 0 never stops early. @public */
export const TARGET_PRECISION = {
  flag: '--target-precision',
  default: 0.05,
  bounds: { min: 0, max: 1, maxExclusive: true },
} as const satisfies Setting;
/** `--time-budget`: at most a week. @public */
export const TIME_BUDGET = {
  flag: '--time-budget',
  default: 60,
  bounds: { min: 0, max: 7 * 86_400, minExclusive: true },
  unit: 'seconds',
} as const satisfies Setting;
/** `--find-max-batch-cap`: the max-batch search stops doubling here. @public */
export const FIND_MAX_BATCH_CAP = {
  flag: '--find-max-batch-cap',
  default: 65_536,
  bounds: { min: 1, max: Infinity, integer: true },
  unit: 'rows',
} as const satisfies Setting;
/** `--calibration-budget`: a short search (the seed asked for seconds, not minutes). @public */
export const CALIBRATION_BUDGET = {
  flag: '--calibration-budget',
  default: 20,
  bounds: { min: 0.1, max: 3600 },
  unit: 'seconds',
} as const satisfies Setting;
/** `benchmark-dataloader --num-batches`: batches timed per repeat. @public */
export const NUM_BATCHES = {
  flag: '--num-batches',
  default: 100,
  bounds: { min: 1, max: 1e6, integer: true },
} as const satisfies Setting;
/** `benchmark-dataloader --repeats`: repeats per grid point. @public */
export const REPEATS = {
  flag: '--repeats',
  default: 3,
  bounds: { min: 1, max: 100, integer: true },
} as const satisfies Setting;
/** `benchmark-dataloader --noise-margin`: the share a setting must beat the model rate by. @public */
export const NOISE_MARGIN = {
  flag: '--noise-margin',
  default: 0.1,
  bounds: { min: 0, max: 0.99 },
} as const satisfies Setting;
/** `benchmark-dataloader --consumption-steps`: 0 skips the model. @public */
export const CONSUMPTION_STEPS = {
  flag: '--consumption-steps',
  default: 5,
  bounds: { min: 0, max: 10_000, integer: true },
} as const satisfies Setting;
