import type { CriticalBatchEstimate } from '../batch-study/critical-batch';
import { formatNoiseScale, type GradientNoiseMeasurement } from '../batch-study/gradient-noise';
import type { MaxBatchResult } from '../batch-study/max-batch-search';
import type { SweepKind, SweepPoint, SweepPointOk } from '../batch-study/batch-study-report';
import { nearestPowerOfTwo } from '../batch-study/critical-batch';
import type { Recommendation } from '../report/benchmark-report';
import { formatRateInterval } from '../stats/rate-interval';

/** What the batch-study rules look at. @public */
export interface BatchStudyContext {
  readonly sweep: { readonly type: SweepKind; readonly points: readonly SweepPoint[] } | null;
  readonly criticalBatch: CriticalBatchEstimate | null;
  readonly gradientNoise: GradientNoiseMeasurement | null;
  readonly maxBatch: MaxBatchResult | null;
  readonly settings: { readonly batchSize: number; readonly learningRate: number };
}

/** A batch-study rule, as `RecommendationRule` is for one run. @public */
export interface BatchStudyRule {
  readonly id: string;
  evaluate(ctx: BatchStudyContext): Omit<Recommendation, 'rule'> | null;
}

const okPoints = (ctx: BatchStudyContext, type: SweepKind): SweepPointOk[] =>
  ctx.sweep?.type === type ? ctx.sweep.points.filter((p): p is SweepPointOk => p.status === 'ok') : [];
const sps = (x: number): string => `${x.toFixed(1)} samples/s`;
const interval = (p: SweepPointOk): string =>
  formatRateInterval(p.samples_per_second_ci95, p.samples_per_second_ci95_note);

/**
 * The batch size the sweep supports: the smallest whose samples/s interval reaches the best point's interval, i.e.
 * not measurably slower than the fastest (smaller batches make more progress per sample). @public
 */
export const sweepBatchChoice = (
  points: readonly SweepPointOk[],
): { chosen: SweepPointOk; best: SweepPointOk } | null => {
  if (points.length < 2) return null;
  const best = points.reduce((a, b) => (b.samples_per_second > a.samples_per_second ? b : a));
  const chosen = [...points]
    .sort((a, b) => a.batch_size - b.batch_size)
    // an interval open above cannot rule out reaching the best one
    .find((p) => (p.samples_per_second_ci95[1] ?? Number.POSITIVE_INFINITY) >= best.samples_per_second_ci95[0])!;
  return { chosen, best };
};

const rule = (id: string, evaluate: BatchStudyRule['evaluate']): BatchStudyRule => ({ id, evaluate });

/** The rule table of a batch study, evaluated in order. @public */
export const BATCH_STUDY_RULES: readonly BatchStudyRule[] = [
  rule('sweep-batch-size', (ctx) => {
    const pick = sweepBatchChoice(okPoints(ctx, 'batch_size'));
    if (!pick) return null;
    const { chosen, best } = pick;
    const same = chosen === best;
    return {
      severity: 'suggestion',
      message: same
        ? `Batch ${chosen.batch_size} is the fastest of the sweep (${sps(chosen.samples_per_second)}).`
        : `Batch ${chosen.batch_size} is as fast as the fastest point within the intervals (${sps(chosen.samples_per_second)} against ${sps(best.samples_per_second)} at batch ${best.batch_size}); the smaller batch makes more progress per sample.`,
      flag: '--batch-size',
      value: String(chosen.batch_size),
      evidence: `samples/s 95 % interval at ${chosen.batch_size}: ${interval(chosen)}, best at ${best.batch_size}: ${interval(best)}`,
    };
  }),
  rule('gradient-noise-scale', (ctx) => {
    const g = ctx.gradientNoise;
    if (!g) return null;
    // Without a sweep choice, the batch the noise was measured at (the one point that ran), not --batch-size, which the sweep replaced.
    const batch = sweepBatchChoice(okPoints(ctx, 'batch_size'))?.chosen.batch_size ?? Math.round(g.b_big);
    const evidence = `${formatNoiseScale(g)} over ${g.steps} steps, batch ${batch}`;
    // Unresolved (|G|² not above 0): only its lower bound speaks, and only for "larger".
    const scale = g.b_simple ?? g.b_simple_ci95[0];
    if (!(scale > 0)) return null;
    const noise = nearestPowerOfTwo(scale);
    if (g.b_simple !== null && batch > 2 * g.b_simple) {
      return {
        severity: 'warning',
        message: `Batch ${batch} is more than twice the measured gradient noise scale (${g.b_simple.toFixed(0)}): beyond it, larger batches barely cut the steps training needs, so samples are spent for little progress.`,
        flag: '--batch-size',
        value: String(Math.max(1, noise)),
        evidence,
      };
    }
    if (2 * batch < scale) {
      const steps = nearestPowerOfTwo(scale / batch);
      return {
        severity: 'suggestion',
        message: `The measured gradient noise scale (${g.b_simple === null ? `at least ${scale.toFixed(0)}` : scale.toFixed(0)}) is well above batch ${batch}: each update could average about ${steps}× more samples without wasting them; if memory or speed caps the batch, accumulate gradients.`,
        flag: '--gradient-accumulation-steps',
        value: String(steps),
        evidence,
      };
    }
    return null;
  }),
  rule('max-batch', (ctx) => {
    const m = ctx.maxBatch;
    if (!m || m.max_batch_size === 0) return null;
    const over = ctx.settings.batchSize > m.max_batch_size;
    const limit =
      m.limited_by === 'cap'
        ? `the search cap (${m.max_batch_size})`
        : `memory at ${m.first_failing}: ${m.failure_reason ?? 'failed'}`;
    return {
      severity: over ? 'warning' : 'info',
      message: over
        ? `Batch ${ctx.settings.batchSize} does not fit one pass on this backend; the largest that does is ${m.max_batch_size}.`
        : m.limited_by === 'cap'
          ? `Batch ${m.max_batch_size}, the search cap, fits one pass on this backend; larger ones were not tried (raise --find-max-batch-cap).`
          : `The largest batch that fits one pass on this backend is ${m.max_batch_size}.`,
      flag: '--batch-size',
      value: String(m.max_batch_size),
      evidence: `limited by ${limit}`,
    };
  }),
  rule('sweep-failures', (ctx) => {
    const failed = ctx.sweep?.points.filter((p) => p.status === 'failed') ?? [];
    if (failed.length === 0 || ctx.sweep?.type !== 'batch_size') return null;
    const smallest = failed.reduce((a, b) => (b.batch_size < a.batch_size ? b : a));
    const fitting = okPoints(ctx, 'batch_size')
      .filter((p) => p.batch_size < smallest.batch_size)
      .map((p) => p.batch_size);
    return {
      severity: 'warning',
      message: `${failed.length} sweep point(s) failed, the smallest at batch ${smallest.batch_size}; stay below it.`,
      flag: fitting.length ? '--batch-size' : null,
      value: fitting.length ? String(Math.max(...fitting)) : null,
      evidence: `batch ${smallest.batch_size}: ${smallest.reason}`,
    };
  }),
  rule('sweep-learning-rate', (ctx) => {
    const points = okPoints(ctx, 'learning_rate');
    if (points.length < 2) return null;
    const best = points.reduce((a, b) => (b.final_loss < a.final_loss ? b : a));
    return {
      severity: 'info',
      message: `Learning rate ${best.learning_rate} ended the short run with the lowest loss (${best.final_loss.toFixed(4)}); a short run favours fast early progress, so confirm it over a longer run.`,
      flag: '--learning-ratio',
      value: String(best.learning_rate),
      evidence: points.map((p) => `${p.learning_rate}: ${p.final_loss.toFixed(4)}`).join(', '),
    };
  }),
];

/** Runs every batch-study rule and returns those that fired, in table order. @public */
export const recommendBatchStudy = (
  ctx: BatchStudyContext,
  rules: readonly BatchStudyRule[] = BATCH_STUDY_RULES,
): Recommendation[] =>
  rules.flatMap((r) => {
    const hit = r.evaluate(ctx);
    return hit ? [{ rule: r.id, ...hit }] : [];
  });
