import { formatRateInterval } from '../stats/rate-interval';
import { summarize } from '../stats/summary';

/**
 * Squared gradient norms of one optimiser step: the mean gradient of each small piece (micro-batch or replica
 * shard) and of the whole update they add up to.
 * @public
 */
export interface GradientNormSample {
  readonly smallRows: readonly number[];
  readonly smallSquaredNorms: readonly number[];
  readonly bigRows: number;
  readonly bigSquaredNorm: number;
}

/** McCandlish et al.'s unbiased estimates of |G|² and tr(Σ) from one step. @public */
export interface NoiseEstimators {
  /** |G|², the squared norm of the true gradient */
  readonly gradientSquared: number;
  /** S = tr(Σ), the per-sample gradient variance summed over parameters */
  readonly trace: number;
}

/** The simple gradient noise scale B_simple = tr(Σ)/|G|², measured from gradient norms. @public */
export interface GradientNoiseMeasurement {
  /** null when mean |G|² is not above 0: the noise drowned the gradient at these batch sizes (see `note`) */
  readonly b_simple: number | null;
  /** from the ends of the 95 % intervals of mean S and mean |G|²; the upper end is null (unbounded) when |G|²'s interval reaches 0 */
  readonly b_simple_ci95: readonly [number, number | null];
  readonly note: string;
  readonly steps: number;
  /** harmonic mean of the piece sizes, and the rows of one update */
  readonly b_small: number;
  readonly b_big: number;
  readonly trace_mean: number;
  readonly gradient_squared_mean: number;
  readonly method: string;
}

/**
 * Per step: with |G_small|² the mean squared norm of the pieces' mean gradients and |G_big|² that of the update,
 * E|G_b|² = |G|² + S/b, so |G|² = (B_big|G_big|² − B_small|G_small|²)/(B_big − B_small) and
 * S = (|G_small|² − |G_big|²)/(1/B_small − 1/B_big). Pieces of unequal size use B_small = the harmonic mean of their
 * sizes, which keeps both unbiased. Returns null when the step has fewer than two pieces.
 * @public
 */
export const noiseEstimators = (s: GradientNormSample): (NoiseEstimators & { bSmall: number }) | null => {
  const k = s.smallRows.length;
  if (k < 2 || s.smallSquaredNorms.length !== k || s.smallRows.some((r) => r <= 0)) return null;
  const bSmall = k / s.smallRows.reduce((a, r) => a + 1 / r, 0);
  const bBig = s.bigRows;
  if (!(bBig > bSmall)) return null;
  const small = s.smallSquaredNorms.reduce((a, x) => a + x, 0) / k;
  return {
    bSmall,
    gradientSquared: (bBig * s.bigSquaredNorm - bSmall * small) / (bBig - bSmall),
    trace: (small - s.bigSquaredNorm) / (1 / bSmall - 1 / bBig),
  };
};

const METHOD =
  'McCandlish et al. (2018), appendix A: per optimiser step, unbiased |G|² and S = tr(Σ) from the squared norms of the ' +
  "pieces' mean gradients (B_small) and of the whole update (B_big); B_simple = mean S ÷ mean |G|² over the steps " +
  "(the ratio of means, as the paper advises, since one step's ratio is very noisy)";

/** B_simple over many steps; null when no step had two pieces. @public */
export const estimateGradientNoise = (samples: readonly GradientNormSample[]): GradientNoiseMeasurement | null => {
  const steps = samples.flatMap((s) => {
    const e = noiseEstimators(s);
    return e ? [{ ...e, bBig: s.bigRows }] : [];
  });
  if (steps.length === 0) return null;
  const trace = summarize(steps.map((s) => s.trace));
  const g2 = summarize(steps.map((s) => s.gradientSquared));
  const hiTrace = trace.ci95[1];
  const loTrace = Math.max(0, trace.ci95[0]);
  const bBig = summarize(steps.map((s) => s.bBig)).mean;
  const resolved = g2.mean > 0 && trace.mean > 0;
  const lower = g2.ci95[1] > 0 ? loTrace / g2.ci95[1] : 0;
  return {
    b_simple: resolved ? trace.mean / g2.mean : null,
    b_simple_ci95: [lower, g2.ci95[0] > 0 ? hiTrace / g2.ci95[0] : null],
    note: !resolved
      ? `over ${steps.length} updates the true gradient's squared norm could not be told from 0: the noise scale is far above the ${bBig.toFixed(0)}-row updates measured; it is at least ${lower.toFixed(1)}. Measure at a larger batch or over more batches.`
      : g2.ci95[0] > 0
        ? `measured over ${steps.length} updates from the start of training; the noise scale usually grows as training goes on, so later in training it is larger.`
        : `the upper end is unbounded: over ${steps.length} updates the true gradient's squared norm is not clearly above 0. Measure over more batches to bound it.`,
    steps: steps.length,
    b_small: summarize(steps.map((s) => s.bSmall)).mean,
    b_big: bBig,
    trace_mean: trace.mean,
    gradient_squared_mean: g2.mean,
    method: METHOD,
  };
};

/**
 * The one way B_simple and its interval are written (console, HTML, recommendations). An open upper end reads
 * "≥ lo", with why unless `withReason` is false (where `note`, which says it, is printed beside), never "∞".
 * @public
 */
export const formatNoiseScale = (g: GradientNoiseMeasurement, withReason = true): string => {
  const open = `open above: over ${g.steps} updates the true gradient's squared norm is not clearly above 0`;
  const ci = formatRateInterval(g.b_simple_ci95, g.b_simple_ci95[1] === null ? open : null, withReason);
  return `B_simple ${g.b_simple === null ? 'unresolved' : g.b_simple.toFixed(1)} (95 % interval ${ci})`;
};
