import type { AdaptiveBatchRecommendation } from './adaptive-batch-recommendation';
import { roundToPowerOfTwo } from './adaptive-batch';

/** maou's `strategy_recommendation` in `--estimate-cbs`: adaptive batch, or a fixed batch with an LR schedule. @public */
export interface StrategyRecommendation {
  readonly recommendation: 'adaptive_batch' | 'either' | 'lr_scheduler';
  /** CBS ÷ physical batch, 1 decimal (1 without a physical batch) */
  readonly cbs_to_physical_ratio: number;
  readonly summary_lines: readonly string[];
}

/**
 * maou's `_build_strategy_recommendation`: by CBS ÷ physical batch, adaptive batch from 4 (or when the CBS lies beyond
 * the tested sizes; maou cannot yet combine it with an LR schedule), either from 2 (the fixed alternative accumulates
 * `pow2(max(2, CBS // B))` steps under warmup_cosine_decay), else a schedule at the current batch.
 * @public
 */
export const recommendStrategy = (
  cbs: number,
  cbsExceedsTested: boolean,
  adaptive: AdaptiveBatchRecommendation,
): StrategyRecommendation => {
  const b = adaptive.physical_batch_size;
  const ratio = b > 0 ? cbs / b : 1;
  const rounded = Math.round(ratio * 10) / 10;
  if (cbsExceedsTested || ratio >= 4)
    return {
      recommendation: 'adaptive_batch',
      cbs_to_physical_ratio: rounded,
      summary_lines: [
        'Use --adaptive-batch with a fixed learning rate (no --lr-scheduler).',
        `The CBS (${cbs}) is ${Math.round(ratio)}× or more the physical batch (${b}): small effective batches steady the`,
        'noisy early updates, and the controller raises the accumulation as the noise falls.',
        'maou cannot combine adaptive batch with an LR schedule yet: a change of accumulation changes how fast the',
        'schedule advances, and the learning rate is not scaled with the effective batch. For a warm-up, run a few',
        'epochs at a low rate by hand, then switch to the full one.',
      ],
    };
  if (ratio >= 2) {
    const steps = roundToPowerOfTwo(Math.max(2, Math.floor(cbs / b)), 2);
    return {
      recommendation: 'either',
      cbs_to_physical_ratio: rounded,
      summary_lines: [
        'Either strategy fits this CBS.',
        `[A] adaptive batch, no schedule: ${adaptive.cli_example} (follows the noise; no LR schedule)`,
        `[B] fixed accumulation with a schedule: --gradient-accumulation-steps ${steps} --lr-scheduler warmup_cosine_decay`,
        `    (effective batch ${b * steps}; warm-up and decay, but the batch does not follow the CBS as it moves)`,
      ],
    };
  }
  return {
    recommendation: 'lr_scheduler',
    cbs_to_physical_ratio: rounded,
    summary_lines: [
      'Use --lr-scheduler warmup_cosine_decay at a fixed batch size.',
      `The CBS (${cbs}) is close to the physical batch (${b}), so accumulation gains little; the current batch is`,
      'already efficient, and a warm-up and decay serve the training better.',
    ],
  };
};
