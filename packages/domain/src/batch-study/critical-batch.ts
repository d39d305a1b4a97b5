import type { AdaptiveBatchRecommendation } from '../adaptive-batch/adaptive-batch-recommendation';
import type { StrategyRecommendation } from '../adaptive-batch/strategy-recommendation';
import type { RateCi95 } from '../stats/rate-interval';

/** One batch size's measured throughput, with its 95 % interval. @public */
export interface ThroughputPoint {
  readonly batchSize: number;
  readonly samplesPerSecond: number;
  readonly ci95: RateCi95;
}

/** The critical batch size from throughput across a batch-size sweep (maou's `--estimate-cbs` model). @public */
export interface CriticalBatchEstimate {
  /** the median pair estimate rounded to the nearest power of two; the largest tested size when no pair gives one */
  readonly estimated_cbs: number;
  readonly cbs_exceeds_tested: boolean;
  /** the unrounded median of the pair estimates (1 decimal), maou's `gradient_noise_scale`; null without a pair */
  readonly gradient_noise_scale: number | null;
  readonly pair_estimates: readonly number[];
  readonly recommendation: string;
  /** (samples/s ÷ B) over the smallest batch's (samples/s ÷ B), 3 decimals: 1 = throughput grew as fast as the batch */
  readonly scaling_efficiency: Readonly<Record<string, number>>;
  /** the same ratio from the ends of the two throughput intervals; the high end null where this point's is open */
  readonly scaling_efficiency_ci95: Readonly<Record<string, readonly [number, number | null]>>;
  readonly method: string;
  /** maou's settings for `--adaptive-batch` at this CBS (`--estimate-cbs`) */
  readonly adaptive_batch_recommendation?: AdaptiveBatchRecommendation;
  /** maou's guide between `--adaptive-batch` and a fixed batch with an LR schedule, beside the settings above */
  readonly strategy_recommendation?: StrategyRecommendation;
}

/** 2^round(log2(max(1, x))). @public */
export const nearestPowerOfTwo = (x: number): number => 2 ** Math.round(Math.log2(Math.max(1, x)));

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const round = (x: number, digits: number): number => Number(x.toFixed(digits));

const METHOD =
  'model samples/s(B) = peak·B·CBS/(CBS+B), i.e. batch time = fixed + per-sample·B with CBS = fixed ÷ per-sample; ' +
  'per-batch efficiency e = samples/s ÷ B; every pair i<j with e_i > e_j > 0 gives CBS_ij = (B_j·e_j − B_i·e_i)/(e_i − e_j); ' +
  'CBS = median of the positive pair estimates, rounded to a power of two';

const advice = (cbs: number, exceeds: boolean, sizes: readonly number[]): string => {
  const lo = sizes[0]!;
  const hi = sizes[sizes.length - 1]!;
  if (exceeds)
    return `No pair of batch sizes bounded the CBS: samples/s grew in proportion to the batch up to ${hi}. Try larger batch sizes.`;
  if (hi < cbs)
    return `Every tested batch size is below the estimated CBS of ${cbs}: larger batches should still raise samples/s.`;
  if (lo > 2 * cbs)
    return `Every tested batch size is well above the estimated CBS of ${cbs}: consider reducing the batch size to about ${cbs}.`;
  return `The estimated CBS of ${cbs} lies within the tested range ${lo}–${hi}.`;
};

/**
 * maou's CBS estimate with its corrected pair formula (its first version overestimated about 2.7×). Needs at least
 * two points; returns null otherwise.
 * @public
 */
export const estimateCriticalBatch = (points: readonly ThroughputPoint[]): CriticalBatchEstimate | null => {
  const sorted = [...points].sort((a, b) => a.batchSize - b.batchSize);
  if (sorted.length < 2) return null;
  const eff = sorted.map((p) => p.samplesPerSecond / p.batchSize);
  const pairs: number[] = [];
  for (let i = 0; i < sorted.length; i++) {
    for (let j = i + 1; j < sorted.length; j++) {
      if (!(eff[i]! > eff[j]! && eff[j]! > 0)) continue;
      const cbs = (sorted[j]!.batchSize * eff[j]! - sorted[i]!.batchSize * eff[i]!) / (eff[i]! - eff[j]!);
      if (cbs > 0) pairs.push(cbs);
    }
  }
  const sizes = sorted.map((p) => p.batchSize);
  const exceeds = pairs.length === 0;
  const raw = exceeds ? null : median(pairs);
  const cbs = raw === null ? sizes[sizes.length - 1]! : nearestPowerOfTwo(raw);
  const base = sorted[0]!;
  const e0 = eff[0]!;
  return {
    estimated_cbs: cbs,
    cbs_exceeds_tested: exceeds,
    gradient_noise_scale: raw === null ? null : round(raw, 1),
    pair_estimates: pairs.map((x) => round(x, 1)),
    recommendation: advice(cbs, exceeds, sizes),
    scaling_efficiency: Object.fromEntries(sorted.map((p, i) => [String(p.batchSize), round(eff[i]! / e0, 3)])),
    scaling_efficiency_ci95: Object.fromEntries(
      sorted.map((p) => [
        String(p.batchSize),
        [
          base.ci95[1] === null ? 0 : round(p.ci95[0] / p.batchSize / (base.ci95[1] / base.batchSize), 3),
          p.ci95[1] === null ? null : round(p.ci95[1] / p.batchSize / (base.ci95[0] / base.batchSize), 3),
        ] as const,
      ]),
    ),
    method: METHOD,
  };
};
