import type { GradientNormSample } from '../batch-study/gradient-noise';
import {
  ADAPTIVE_BATCH_INTERVAL,
  ADAPTIVE_BATCH_MEASUREMENT_INTERVAL,
  ADAPTIVE_BATCH_MAX_STEPS,
  ADAPTIVE_BATCH_MIN_STEPS,
  ADAPTIVE_BATCH_SMOOTHING,
} from '../config/model-settings';

/**
 * `--adaptive-batch` and its knobs, as maou HEAD's `AdaptiveBatchConfig`: accumulation steps between `minSteps` and
 * `maxSteps`, adjusted every `interval` optimiser steps from an EMA (`smoothing`) of the gradient noise scale
 * measured every `measurementInterval` optimiser steps.
 * @public
 */
export interface AdaptiveBatchSettings {
  readonly minSteps: number;
  readonly maxSteps: number;
  readonly interval: number;
  readonly smoothing: number;
  readonly measurementInterval: number;
}

/** maou HEAD's defaults (`benchmark-training` / `learn-model`). @public */
export const MAOU_ADAPTIVE_BATCH_DEFAULTS: AdaptiveBatchSettings = {
  minSteps: ADAPTIVE_BATCH_MIN_STEPS.default,
  maxSteps: ADAPTIVE_BATCH_MAX_STEPS.default,
  interval: ADAPTIVE_BATCH_INTERVAL.default,
  smoothing: ADAPTIVE_BATCH_SMOOTHING.default,
  measurementInterval: ADAPTIVE_BATCH_MEASUREMENT_INTERVAL.default,
};

/** Python's `round`: halves go to the even neighbour. */
const roundHalfEven = (x: number): number => {
  const r = Math.round(x);
  return Math.abs(x % 1) === 0.5 && r % 2 !== 0 ? r - 1 : r;
};

/**
 * CPython's `math.log2` for x ≥ 1: frexp's mantissa m ∈ [0.5, 1) and exponent e, log2(m) + e. V8's `Math.log2` differs
 * in the last bit where maou's rounding decides (1.4999999999999998 for √2·2, CPython 1.5).
 */
const pythonLog2 = (x: number): number => {
  let e = Math.floor(Math.log2(x)) + 1;
  if (2 ** (e - 1) > x) e--;
  if (2 ** e <= x) e++;
  return Math.log2(x / 2 ** e) + e;
};

/** maou's `round_to_power_of_two`: the nearest power of two in log space, never below `minimum`. @public */
export const roundToPowerOfTwo = (value: number, minimum = 1): number =>
  Math.max(minimum, Math.trunc(2 ** roundHalfEven(pythonLog2(Math.max(minimum, value)))));

/** One cycle's noise-scale reading: `bNoise` null when maou discards it (`lowNoise`: K·S/G ≤ 1). @public */
export interface NoiseScaleReading {
  readonly bNoise: number | null;
  readonly lowNoise: boolean;
}

/**
 * maou's `GradientNoiseScaleEstimator.compute` from one update's gradient norms: with K pieces whose mean gradients
 * are g_k (each piece's loss weighted by 1/K as under accumulation), S = Σ‖g_k/K‖², G = ‖Σ g_k/K‖², b the rows of a
 * piece, `B_noise = b·K/(K−1)·(K·S/G − 1)`. A piece is maou's micro-batch when one replica trains whole batches; data-
 * parallel shards or heap-sized pieces make more, smaller pieces of the same update (b·K is the update's rows either
 * way). Discarded as maou does: K < 2, G not finite or below 1e−30, S above 1e30 or NaN, or K·S/G ≤ 1.
 * @public
 */
export const maouNoiseScale = (sample: GradientNormSample): NoiseScaleReading => {
  const k = sample.smallSquaredNorms.length;
  const none = { bNoise: null, lowNoise: false };
  if (k < 2) return none;
  const g = sample.bigSquaredNorm;
  if (!Number.isFinite(g) || g < 1e-30) return none;
  const s = sample.smallSquaredNorms.reduce((a, x) => a + x, 0) / (k * k);
  if (s > 1e30 || Number.isNaN(s)) return none;
  const ratio = (k * s) / g;
  if (ratio <= 1) return { bNoise: null, lowNoise: true };
  const b = sample.bigRows / k;
  return { bNoise: ((b * k) / (k - 1)) * (ratio - 1), lowNoise: false };
};

/** The controller between optimiser steps (maou's `AdaptiveBatchController` with its estimator's step count). @public */
export interface AdaptiveBatchState {
  readonly steps: number;
  readonly smoothedNoiseScale: number | null;
  readonly optimizerSteps: number;
}

/** Before the first update: `minSteps`, no estimate yet. @public */
export const startAdaptiveBatch = (s: AdaptiveBatchSettings): AdaptiveBatchState => ({
  steps: s.minSteps,
  smoothedNoiseScale: null,
  optimizerSteps: 0,
});

/** Whether the next cycle's gradients are measured (maou: every `measurementInterval` optimiser steps, from 0). @public */
export const measuresNextCycle = (state: AdaptiveBatchState, s: AdaptiveBatchSettings): boolean =>
  state.optimizerSteps % s.measurementInterval === 0;

/** `round_to_power_of_two(B_noise / physical batch)` clipped to [min, max]; min when the estimate is not positive. */
const targetSteps = (smoothed: number, s: AdaptiveBatchSettings, physicalBatch: number): number =>
  smoothed <= 0 ? s.minSteps : Math.min(s.maxSteps, Math.max(s.minSteps, roundToPowerOfTwo(smoothed / physicalBatch)));

/**
 * maou's `update`, called after every optimiser step with that cycle's estimate (null when not measured or
 * discarded): the EMA takes the estimate (the first one as is), and every `interval` optimiser steps the steps move
 * to the target.
 * @public
 */
export const advanceAdaptiveBatch = (
  state: AdaptiveBatchState,
  s: AdaptiveBatchSettings,
  physicalBatch: number,
  bNoise: number | null,
): AdaptiveBatchState => {
  const optimizerSteps = state.optimizerSteps + 1;
  const smoothedNoiseScale =
    bNoise === null
      ? state.smoothedNoiseScale
      : state.smoothedNoiseScale === null
        ? bNoise
        : s.smoothing * bNoise + (1 - s.smoothing) * state.smoothedNoiseScale;
  const adjust = optimizerSteps % s.interval === 0 && smoothedNoiseScale !== null;
  return {
    optimizerSteps,
    smoothedNoiseScale,
    steps: adjust ? targetSteps(smoothedNoiseScale, s, physicalBatch) : state.steps,
  };
};
