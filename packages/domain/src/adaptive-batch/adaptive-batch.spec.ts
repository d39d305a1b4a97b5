import {
  advanceAdaptiveBatch,
  MAOU_ADAPTIVE_BATCH_DEFAULTS,
  maouNoiseScale,
  measuresNextCycle,
  roundToPowerOfTwo,
  startAdaptiveBatch,
  type AdaptiveBatchSettings,
} from './adaptive-batch';
import { adaptiveEpochCorrection, stepsChosen } from './adaptive-batch-report';
import { recommendAdaptiveBatch } from './adaptive-batch-recommendation';
import { withAdaptiveCorrection } from '../estimate/epoch-estimate';
import type { BatchTiming } from '../timing/phases';
import type { EpochEstimate } from '../report/benchmark-report';

// Expected values are worked by hand from maou HEAD (b40d091): src/maou/app/learning/adaptive_batch.py and
// gradient_noise_scale.py.
describe('round_to_power_of_two', () => {
  it('rounds in log space with Python round (halves to even), never below the minimum', () => {
    expect(roundToPowerOfTwo(7.8125)).toBe(8); // log2 = 2.97 → 3
    expect(roundToPowerOfTwo(2.9)).toBe(4); // log2 = 1.54 → 2
    expect(roundToPowerOfTwo(2.8)).toBe(2); // log2 = 1.49 → 1
    // √2·2^k (Python's 2 ** (k + 0.5)): CPython's log2 gives k + 0.5 exactly, and round() takes the even neighbour
    expect(roundToPowerOfTwo(Math.SQRT2 * 4)).toBe(4); // log2 = 2.5 → 2 (JS Math.round: 3)
    expect(roundToPowerOfTwo(Math.SQRT2 * 2)).toBe(4); // log2 = 1.5 → 2 (V8's Math.log2 gives 1.4999999999999998)
    expect(roundToPowerOfTwo(Math.SQRT2)).toBe(2); // CPython's log2 = 0.5000000000000001 → 1
    // the same values through CPython 3 (`max(1, int(2 ** round(math.log2(max(1, v)))))`)
    const cpython: [number, number][] = [
      [3, 4],
      [6, 8],
      [12, 16],
      [1.41, 1],
      [1.42, 2],
      [5.65, 4],
      [5.66, 8],
      [1000 / 3, 256],
    ];
    for (const [v, want] of cpython) expect(roundToPowerOfTwo(v)).toBe(want);
    expect(roundToPowerOfTwo(0.01)).toBe(1); // clamped to minimum 1 first
    expect(roundToPowerOfTwo(2, 5)).toBe(5); // maou's docstring: minimum=5, value=2 → 5
  });
});

describe("maou's B_noise from one update's gradient norms", () => {
  it('gives b·K/(K−1)·(K·S/G − 1) with S the 1/K²-scaled sum of the pieces and G the update', () => {
    // K = 2 pieces of 4 rows, ‖g_1‖² = 5, ‖g_2‖² = 3, ‖ḡ‖² = 2: S = (5 + 3)/4 = 2, K·S/G = 2, B = 4·2/1·(2 − 1) = 8
    expect(maouNoiseScale({ smallRows: [4, 4], smallSquaredNorms: [5, 3], bigRows: 8, bigSquaredNorm: 2 })).toEqual({
      bNoise: 8,
      lowNoise: false,
    });
    // K = 4 pieces of 16 rows, ‖g_k‖² = 1, 2, 3, 4, G = 1: S = 10/16, K·S/G = 2.5, B = 16·4/3·1.5 = 32
    expect(
      maouNoiseScale({ smallRows: [16, 16, 16, 16], smallSquaredNorms: [1, 2, 3, 4], bigRows: 64, bigSquaredNorm: 1 })
        .bNoise,
    ).toBeCloseTo(32, 12);
  });

  it('discards what maou discards: K < 2, a vanishing or non-finite G, an overflowing S, and K·S/G ≤ 1', () => {
    const none = { bNoise: null, lowNoise: false };
    expect(maouNoiseScale({ smallRows: [8], smallSquaredNorms: [5], bigRows: 8, bigSquaredNorm: 5 })).toEqual(none);
    expect(maouNoiseScale({ smallRows: [4, 4], smallSquaredNorms: [5, 3], bigRows: 8, bigSquaredNorm: 1e-31 })).toEqual(
      none,
    );
    expect(maouNoiseScale({ smallRows: [4, 4], smallSquaredNorms: [5, 3], bigRows: 8, bigSquaredNorm: NaN })).toEqual(
      none,
    );
    expect(maouNoiseScale({ smallRows: [4, 4], smallSquaredNorms: [8e30, 1], bigRows: 8, bigSquaredNorm: 1 })).toEqual(
      none,
    );
    // identical pieces: K·S/G = 1 → negligible noise
    expect(maouNoiseScale({ smallRows: [4, 4], smallSquaredNorms: [2, 2], bigRows: 8, bigSquaredNorm: 2 })).toEqual({
      bNoise: null,
      lowNoise: true,
    });
  });
});

describe("maou's AdaptiveBatchController", () => {
  const s: AdaptiveBatchSettings = { minSteps: 2, maxSteps: 8, interval: 2, smoothing: 0.5, measurementInterval: 1 };

  it('starts at min steps with no estimate, and measures on optimiser steps 0, N, 2N, …', () => {
    const start = startAdaptiveBatch(MAOU_ADAPTIVE_BATCH_DEFAULTS);
    expect(start).toEqual({ steps: 2, smoothedNoiseScale: null, optimizerSteps: 0 });
    const d = MAOU_ADAPTIVE_BATCH_DEFAULTS;
    expect(measuresNextCycle(start, d)).toBe(true);
    expect(measuresNextCycle({ ...start, optimizerSteps: 4 }, d)).toBe(false);
    expect(measuresNextCycle({ ...start, optimizerSteps: 5 }, d)).toBe(true);
  });

  it('smooths with the EMA (the first estimate as is) and adjusts only every `interval` optimiser steps', () => {
    let st = startAdaptiveBatch(s);
    st = advanceAdaptiveBatch(st, s, 256, 1000);
    expect(st).toEqual({ steps: 2, smoothedNoiseScale: 1000, optimizerSteps: 1 });
    // step 2: EMA 0.5·3000 + 0.5·1000 = 2000; 2000/256 = 7.81 → 8
    st = advanceAdaptiveBatch(st, s, 256, 3000);
    expect(st).toEqual({ steps: 8, smoothedNoiseScale: 2000, optimizerSteps: 2 });
    // step 3: no estimate, EMA kept; step 4: 0.5·100 + 0.5·2000 = 1050; 4.10 → 4
    st = advanceAdaptiveBatch(st, s, 256, null);
    expect(st).toEqual({ steps: 8, smoothedNoiseScale: 2000, optimizerSteps: 3 });
    st = advanceAdaptiveBatch(st, s, 256, 100);
    expect(st).toEqual({ steps: 4, smoothedNoiseScale: 1050, optimizerSteps: 4 });
  });

  it('clips the target to [min, max], and goes to min for a non-positive estimate or keeps steps without one', () => {
    const at = (bNoise: number | null) =>
      advanceAdaptiveBatch({ steps: 4, smoothedNoiseScale: null, optimizerSteps: 1 }, s, 256, bNoise).steps;
    expect(at(1e6)).toBe(8); // 3906 → 4096, clipped to 8
    expect(at(10)).toBe(2); // 0.04 → 1, clipped to 2
    expect(at(-5)).toBe(2);
    expect(at(null)).toBe(4); // never measured: no adjustment
  });
});

const batch = (index: number, optimizerMs: number, optimizerStep: boolean, steps: number): BatchTiming => ({
  index,
  warmup: false,
  samples: 8,
  startMs: 0,
  wallMs: 100,
  phases: {
    dataWait: 0,
    hostToDevice: 0,
    forward: 40,
    loss: 0,
    backward: 60 - optimizerMs,
    optimizer: optimizerMs,
    other: 0,
  },
  loss: 1,
  numTensors: 0,
  accumulationSteps: steps,
  optimizerStep,
});

describe('the epoch prediction of an adaptive run', () => {
  // 6 batches at K = 2 (steps after batches 1, 3, 5), then 2 at K = 4 with the cycle in progress; 20 in the epoch
  const timings = [
    ...[0, 1, 2, 3, 4, 5].map((i) => batch(i, i % 2 ? 10 : 0, i % 2 === 1, 2)),
    batch(6, 0, false, 4),
    batch(7, 0, false, 4),
  ];

  it('counts the rest of the epoch at the last chosen steps instead of the share the steady mean carries', () => {
    const c = adaptiveEpochCorrection(timings, 2, 20, 4)!;
    // steady batches 2..7: 2 steps in 6 batches, 10 ms each; 12 batches left + 2 pending → floor(14/4) = 3 steps
    expect(c).toEqual({
      optimizer_ms_per_step: 10,
      measured_steps_per_batch: 2 / 6,
      remaining_batches: 12,
      predicted_remaining_steps: 3,
      correction_ms: (3 - 12 / 3) * 10,
    });
    const epoch: EpochEstimate = {
      batches_per_epoch: 20,
      samples_per_epoch: 160,
      predicted_ms: 2000,
      predicted_ms_ci95: [1800, 2200],
      warmup_cost_ms: 0,
      method: 'm',
    };
    const corrected = withAdaptiveCorrection(epoch, c);
    expect(corrected.predicted_ms).toBeCloseTo(1990, 9);
    expect(corrected.predicted_ms_ci95).toEqual([1790, 2190]);
    expect(corrected.method).toMatch(/^m; adaptive batch: 3 optimiser steps predicted for the 12 remaining batches/);
  });

  it('is null when no steady batch stepped', () => {
    expect(adaptiveEpochCorrection(timings.slice(0, 1), 0, 20, 2)).toBeNull();
  });

  it('lists the steps over time from the batch each change took effect', () => {
    const cycle = (first: number, k: number, next: number) => ({
      optimizer_step: 0,
      first_batch: first,
      accumulation_steps: k,
      measured: true,
      noise_scale: 1,
      low_noise: false,
      smoothed_noise_scale: 1,
      next_accumulation_steps: next,
    });
    expect(stepsChosen([cycle(0, 3, 3), cycle(3, 3, 4), cycle(6, 4, 4), cycle(10, 4, 2)], 3)).toEqual([
      { from_batch: 0, accumulation_steps: 3 },
      { from_batch: 6, accumulation_steps: 4 },
      { from_batch: 14, accumulation_steps: 2 },
    ]);
  });
});

describe("maou's adaptive_batch_recommendation (--estimate-cbs)", () => {
  it('takes the largest tested batch, min steps pow2(max(2, CBS // B)), max steps pow2(max(min, 2·CBS // B))', () => {
    // CBS 1024 over 64..256: 1024 // 256 = 4 → 4; 2048 // 256 = 8 → 8; 17 M parameters → measure every step
    expect(recommendAdaptiveBatch(1024, [64, 128, 256], 17_012_665)).toEqual({
      physical_batch_size: 256,
      min_accumulation_steps: 4,
      max_accumulation_steps: 8,
      target_effective_batch_size: 1024,
      measurement_interval: 1,
      rationale: 'CBS=1024, physical BS=256 → accumulation 4-8 reaches the CBS',
      cli_example: '--batch-size 256 --adaptive-batch --adaptive-batch-min-steps 4 --adaptive-batch-max-steps 8',
    });
    // CBS 3072 // 512 = 6 → pow2 8; 6144 // 512 = 12 → 16; 600 M parameters → every 10 steps
    expect(recommendAdaptiveBatch(3072, [256, 512], 600_000_000)).toMatchObject({
      min_accumulation_steps: 8,
      max_accumulation_steps: 16,
      measurement_interval: 10,
      cli_example:
        '--batch-size 512 --adaptive-batch --adaptive-batch-min-steps 8 --adaptive-batch-max-steps 16 --adaptive-batch-measurement-interval 10',
    });
    // a CBS below the batch: 2 steps at least; 150 M parameters → every 5
    expect(recommendAdaptiveBatch(128, [256, 512], 150_000_000)).toMatchObject({
      min_accumulation_steps: 2,
      max_accumulation_steps: 2,
      measurement_interval: 5,
    });
    expect(recommendAdaptiveBatch(0, [256], null)).toBeNull();
    expect(recommendAdaptiveBatch(256, [], null)).toBeNull();
  });
});
