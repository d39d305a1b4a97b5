import { roundToPowerOfTwo } from './adaptive-batch';

/** maou's `adaptive_batch_recommendation` in `--estimate-cbs`: settings for `--adaptive-batch` from the CBS. @public */
export interface AdaptiveBatchRecommendation {
  readonly physical_batch_size: number;
  readonly min_accumulation_steps: number;
  readonly max_accumulation_steps: number;
  readonly target_effective_batch_size: number;
  readonly measurement_interval: number;
  readonly rationale: string;
  readonly cli_example: string;
}

/**
 * maou's `_recommend_measurement_interval` without GPU memory figures (none here): by trainable parameters, 10 from
 * 500 M, 5 from 100 M, else 1; 1 when unknown.
 */
const measurementInterval = (trainableParameters: number | null): number =>
  trainableParameters === null
    ? 1
    : trainableParameters >= 500_000_000
      ? 10
      : trainableParameters >= 100_000_000
        ? 5
        : 1;

/**
 * maou's `_build_adaptive_batch_recommendation`: the largest tested batch is the physical one (it fitted); min steps
 * `pow2(max(2, CBS // B))` (at least 2), max steps `pow2(max(min, 2·CBS // B))` (at least min). Null without a
 * tested size or a positive CBS.
 * @public
 */
export const recommendAdaptiveBatch = (
  cbs: number,
  testedSizes: readonly number[],
  trainableParameters: number | null,
): AdaptiveBatchRecommendation | null => {
  if (testedSizes.length === 0 || !(cbs > 0)) return null;
  const b = Math.max(...testedSizes);
  const min = roundToPowerOfTwo(Math.max(2, Math.floor(cbs / b)), 2);
  const max = roundToPowerOfTwo(Math.max(min, Math.floor((cbs * 2) / b)), min);
  const interval = measurementInterval(trainableParameters);
  return {
    physical_batch_size: b,
    min_accumulation_steps: min,
    max_accumulation_steps: max,
    target_effective_batch_size: b * min,
    measurement_interval: interval,
    rationale: `CBS=${cbs}, physical BS=${b} → accumulation ${min}-${max} reaches the CBS`,
    cli_example: [
      `--batch-size ${b} --adaptive-batch`,
      `--adaptive-batch-min-steps ${min}`,
      `--adaptive-batch-max-steps ${max}`,
      ...(interval > 1 ? [`--adaptive-batch-measurement-interval ${interval}`] : []),
    ].join(' '),
  };
};
