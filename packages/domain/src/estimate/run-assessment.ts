import { summarize } from '../stats/summary';
import { flagDisturbed, type BatchCpu } from '../timing/contention';
import type { BatchTiming } from '../timing/phases';
import { detectSteadyStart } from '../timing/steady-state';
import { batchTrend, type BatchTrend } from './batch-trend';
import { wanderAt, type WanderAt } from './machine-wander';
import { fallAt, RESIDUAL_FALL, type FallAt } from './residual-fall';
import type { MachineProfile } from './machine-profile';
import type { FileOpen } from '../data/host-batch';
import { boundaryStall, isBoundary, type BoundaryStall, type FileBoundaryPlan } from './file-boundaries';

/**
 * Relative spread between two runs of the same configuration that neither run can see (where the allocator and the
 * JIT happened to land, frequency). Added in quadrature to the statistical interval. Five full epochs of the same
 * configuration on a 2-core VM with light outside load took 10.31–10.77 s (σ 1.7 %): 1.96 σ ≈ 3.5 %. It is the floor
 * and the answer on a machine with no record: where the machine's own wander (machine-wander.ts) is wider at a look's
 * length, that counts instead; other processes are the contention counters' job (ADR 0014).
 * @public
 */
export const RUN_TO_RUN_SPREAD = 0.035;
/**
 * The fall was measured on cuts of 20–400 batches (ADR 0014): it is the tail of the start-up transient,
 * so a run that has seen more batches has less of it ahead; beyond this many it shrinks with the square of the
 * ratio (two 2,000-batch lite epochs recorded for issue 30 had none left after 614 and 1,087 batches).
 */
const FALL_MEASURED_TO = 400;
/** Fewest steady batches an answer rests on. */
export const MIN_STEADY_BATCHES = 20;
/** Fewest undisturbed steady batches needed to leave the disturbed ones out. */
const MIN_CLEAN = 8;
/**
 * Share of the steady batches, the most recent, whose drift from the older ones widens the interval (a transient that
 * fades may still lift the older ones), and the fewest of them. The point rests on every steady batch: on 35 short
 * runs against full runs of the same data (sessions 9–11) the latest third's mean was off by 6.9 % on average and
 * all of them by 6.0 % (ADR 0014).
 */
const RECENT_SHARE = 1 / 3;
const MIN_RECENT = 8;
/** A trend still running at the end may move future batches by at most this share of the mean. */
const MAX_TREND_SHIFT = 0.5;

/** The batches of a run so far, as measured. @public */
export interface RunSeries {
  readonly wallMs: readonly number[];
  readonly cpu: readonly (BatchCpu | undefined)[];
  readonly disturbed: readonly boolean[];
  /** the batches that opened a file, with the producer's read (streaming); absent where the loader says nothing */
  readonly opens?: readonly (FileOpen | undefined)[];
}

/** What the batches so far say about the epoch. @public */
export interface RunAssessment {
  readonly steadyStart: number;
  /** steady batches the mean rests on */
  readonly used: number;
  /** steady batches left out because other processes took the CPU */
  readonly excludedDisturbed: number;
  /** most steady batches were disturbed: nothing quiet to rest on */
  readonly disturbed: boolean;
  readonly meanMs: number;
  readonly trend: BatchTrend | null;
  /** the trend was still significant at the latest steady start tried */
  readonly trending: boolean;
  readonly predictedMs: number;
  readonly intervalMs: readonly [number, number];
  /** (high − low) / 2 / predicted */
  readonly halfWidthFraction: number;
  readonly notes: readonly string[];
  /** what the prediction rests on, to project other epoch lengths (sampling) */
  readonly basis: ProjectionBasis;
  /** where `basis.runToRun` came from: this machine's wander at the look's length, or null (the assumed constant) */
  readonly wander: WanderAt | null;
  /** where `basis.residualFall` came from: this machine's runs after a look this long, or null (the constant) */
  readonly fall: FallAt | null;
  /** the file boundaries still ahead and the wait each is counted with (streaming), or null */
  readonly boundaries: BoundaryStall | null;
}

const sum = (xs: readonly number[]): number => xs.reduce((s, x) => s + x, 0);

/** A run's batches as the estimator reads them, those other processes disturbed flagged from their CPU counters. @public */
export const runSeries = (timings: readonly BatchTiming[]): RunSeries => {
  const wallMs = timings.map((t) => t.wallMs);
  const cpu = timings.map((t) => t.cpu);
  const opens = timings.some((t) => t.fileOpen) ? { opens: timings.map((t) => t.fileOpen) } : {};
  return { wallMs, cpu, disturbed: flagDisturbed(wallMs, cpu), ...opens };
};

/**
 * Steady batches from `start`, without the disturbed ones when enough quiet ones are left. File boundaries are never
 * among them: their wait is counted per boundary (boundaryStall).
 */
const steadyIndices = (s: RunSeries, start: number): { used: number[]; excluded: number } => {
  const all = Array.from({ length: s.wallMs.length - start }, (_, i) => start + i).filter(
    (i) => !isBoundary(s.opens, i, start),
  );
  const clean = all.filter((i) => !s.disturbed[i]);
  return clean.length >= MIN_CLEAN ? { used: clean, excluded: all.length - clean.length } : { used: all, excluded: 0 };
};

/**
 * The earliest start, from the detected warm-up on in eighths of the rest, after which the batch times no longer
 * trend; the latest one tried (trending) when every one still does. Batches before it count as warm-up, at the
 * time they took.
 */
const trendFreeStart = (s: RunSeries, minWarmup: number): { start: number; trending: boolean } => {
  const n = s.wallMs.length;
  const first = detectSteadyStart(s.wallMs, minWarmup);
  const step = Math.max(1, Math.floor((n - first) / 8));
  let start = first;
  for (let c = first; n - c >= MIN_STEADY_BATCHES; c += step) {
    start = c;
    const values = steadyIndices(s, c).used.map((i) => s.wallMs[i]!);
    if (!batchTrend(values)?.significant && !falls(recentHalfTrend(values))) return { start: c, trending: false };
  }
  return { start, trending: n - first >= MIN_STEADY_BATCHES };
};

/**
 * The fit over the recent half of the steady batches: a fit over all of them can miss a fall that only the latest
 * batches show once a dip and a long flat stretch come first.
 */
const recentHalfTrend = (values: readonly number[]): BatchTrend | null =>
  batchTrend(values.slice(Math.floor(values.length / 2)));
const falls = (t: BatchTrend | null): t is BatchTrend => Boolean(t?.significant && t.slope_ms_per_batch < 0);

/**
 * Judges the batches so far: warm-up and steady start (the earliest after which batch time no longer trends),
 * disturbed batches left out where enough quiet ones remain, and the epoch projected from them (projectEpoch). The
 * mean's uncertainty is the wider of the plain t-interval and the one from block means, which knows batch times are
 * autocorrelated.
 * @public
 */
export const assessRun = (
  s: RunSeries,
  options: {
    readonly minWarmup: number;
    readonly batchesPerEpoch: number;
    /** a run-to-run term to use as is, instead of the machine's wander or the constant */
    readonly runToRun?: number;
    /** a fall to count as is, instead of the machine's or the constant (which shrinks past 400 batches) */
    readonly residualFall?: number;
    /** this machine's earlier runs: the run-to-run term at this look's length (when wider) and the fall after it */
    readonly machine?: MachineProfile | null;
    /** the pass's file reads (streaming): each boundary ahead is counted with its wait */
    readonly files?: FileBoundaryPlan | null;
  },
): RunAssessment => {
  const n = s.wallMs.length;
  const { start, trending } = trendFreeStart(s, options.minWarmup);
  const { used, excluded } = steadyIndices(s, start);
  const values = used.map((i) => s.wallMs[i]!);
  const trend = batchTrend(values);
  const late = recentHalfTrend(values);
  // The batches to come are predicted from the steady mean; the recent batches' drift from the older ones adds to
  // the uncertainty of that mean (a transient that fades still lifts the older ones).
  const split = values.length - Math.min(values.length, Math.max(MIN_RECENT, Math.ceil(values.length * RECENT_SHARE)));
  const recent = summarize(values.slice(split));
  const older = summarize(values.slice(0, split));
  const drift = older.n > 0 ? Math.abs(recent.mean - older.mean) : 0;
  const stats = summarize(values);
  const usedSet = new Set(used);
  const steadyCount = n - start;
  const disturbedCount = s.disturbed.slice(start).filter(Boolean).length;
  const floor = (i: number): number =>
    Math.min(s.wallMs[i]!, s.cpu[i] ? s.cpu[i]!.processMs / s.cpu[i]!.cores : s.wallMs[i]!);
  const recentHalf = Math.max(
    (recent.ci95[1] - recent.ci95[0]) / 2,
    batchTrend(values.slice(split))?.mean_half_width_ms ?? 0,
  );
  // what the look cannot see of how the machine's speed wanders: 1.96 rms at its length, not below the constant
  const wander = options.runToRun === undefined ? wanderAt(options.machine?.wander ?? null, sum(values) / 1000) : null;
  const runToRun = options.runToRun ?? Math.max(RUN_TO_RUN_SPREAD, 1.96 * (wander?.rms ?? 0));
  // the fall this machine's runs showed after a look this long, or the constant (shrinking past the cuts it was
  // measured on: a run that has seen more batches has less of the start-up transient ahead)
  const fall = options.residualFall === undefined ? fallAt(options.machine?.fall ?? null, n) : null;
  const residualFall =
    options.residualFall ?? fall?.fraction ?? RESIDUAL_FALL * Math.min(1, (FALL_MEASURED_TO / Math.max(1, n)) ** 2);
  const boundaries = boundaryStall(s, start, stats.mean, options.files);
  const rest = Math.max(0, options.batchesPerEpoch - n);
  const basis: ProjectionBasis = {
    // a boundary's wait was run and counts as such; a disturbed steady batch counts at the quiet mean
    observedMs: sum(
      s.wallMs.map((w, i) => (i >= start && !usedSet.has(i) && !isBoundary(s.opens, i, start) ? stats.mean : w)),
    ),
    batchesRun: n,
    steadyStart: start,
    meanMs: stats.mean,
    sdMs: stats.stdev,
    meanHalfWidthMs: Math.sqrt(recentHalf ** 2 + drift ** 2),
    // the steeper fall of the two fits: the latest batches may fall faster than a line over all of them says
    trendMsPerBatch: trend
      ? [Math.min(trend.slope_ci95[0], falls(late) ? late.slope_ci95[0] : 0), trend.slope_ci95[1]]
      : [0, 0],
    disturbed: steadyCount > 0 && excluded === 0 && disturbedCount > steadyCount / 2,
    quietObservedMs: sum(s.wallMs.map((_, i) => floor(i))),
    quietMeanMs: used.length ? sum(used.map(floor)) / used.length : stats.mean,
    runToRun,
    residualFall,
    boundaryMsPerBatch: boundaries && rest > 0 ? (boundaries.ahead * boundaries.stallMs) / rest : 0,
  };
  const { predictedMs, intervalMs } = projectEpoch(basis, options.batchesPerEpoch);
  const notes: string[] = [];
  // the fit that found the trend: the one over all steady batches, or the recent half's fall
  const shown = trend?.significant || !falls(late) ? trend : late;
  const span = shown === trend ? values.length : values.length - Math.floor(values.length / 2);
  if (trending && shown)
    notes.push(
      `batch time still ${shown.slope_ms_per_batch < 0 ? 'falling' : 'rising'} ${Math.abs(shown.relative_change * 100).toFixed(1)} % across the last ${span} batches: the interval allows the trend to run on to the end of the epoch`,
    );
  if (excluded > 0)
    notes.push(
      `${excluded} of ${steadyCount} steady batches shared the CPU with other processes and were left out of the mean; the prediction is for a machine as quiet as the rest of the run`,
    );
  if (basis.disturbed)
    notes.push(
      `disturbed: ${disturbedCount} of ${steadyCount} steady batches shared the CPU with other processes; the interval runs from a quiet machine (low end: this process's CPU time spread over every core) to one as busy as during this run`,
    );
  if (wander && runToRun > RUN_TO_RUN_SPREAD)
    notes.push(
      `this machine's speed over ${wander.windowS} s windows strayed ±${(runToRun * 100).toFixed(1)} % (95 %) from its runs' means in its last ${wander.runs} run(s): a look this long cannot see that, so the interval counts it`,
    );
  return {
    steadyStart: start,
    used: used.length,
    excludedDisturbed: excluded,
    disturbed: basis.disturbed,
    meanMs: stats.mean,
    trend,
    trending,
    basis,
    predictedMs,
    intervalMs,
    halfWidthFraction: predictedMs > 0 ? (intervalMs[1] - intervalMs[0]) / 2 / predictedMs : Number.POSITIVE_INFINITY,
    notes,
    wander,
    fall,
    boundaries,
  };
};

/** What a projection from the batches run so far rests on. @public */
export interface ProjectionBasis {
  /** every batch run, a disturbed steady one at the quiet mean */
  readonly observedMs: number;
  readonly batchesRun: number;
  readonly steadyStart: number;
  readonly meanMs: number;
  readonly sdMs: number;
  readonly meanHalfWidthMs: number;
  /** 95 % interval of the batch-time slope over the steady batches */
  readonly trendMsPerBatch: readonly [number, number];
  readonly disturbed: boolean;
  /** the batches run and the steady mean as a quiet machine would at best have run them (CPU time over every core) */
  readonly quietObservedMs: number;
  readonly quietMeanMs: number;
  readonly runToRun: number;
  /** share by which the batches to come run faster than the steady mean (the prediction counts it, ± itself); for a
   * longer epoch of the same run (sampling) it is the same share */
  readonly residualFall: number;
  /** the file boundaries' wait spread over the batches to come (a longer epoch has as many more boundaries) */
  readonly boundaryMsPerBatch: number;
}

/**
 * The time of `totalBatches` batches: those run as observed, the rest at the steady mean less the residual fall. The
 * interval adds in quadrature the uncertainty of the mean, the noise of the batches to come, the run-to-run spread
 * and that of the fall (none to twice the expected); a trend still running widens it on its side to where the trend
 * would take the rest; and a disturbed run reaches down to the quiet floor.
 * @public
 */
export const projectEpoch = (
  b: ProjectionBasis,
  totalBatches: number,
): { predictedMs: number; intervalMs: readonly [number, number] } => {
  const rest = Math.max(0, totalBatches - b.batchesRun);
  // A fall too late or too slow for the batches run to show: counted in the prediction, since a one-sided allowance
  // left the point off by it; its spread is as large as itself (it may be negative: the rest ran slower).
  const fall = b.residualFall * b.meanMs * rest;
  // the boundaries' wait is no batch's compute: no fall applies to it, and it may be off by half itself
  const boundaries = b.boundaryMsPerBatch * rest;
  const predicted = b.observedMs + b.meanMs * rest - fall + boundaries;
  const stat = Math.sqrt((rest * b.meanHalfWidthMs) ** 2 + 1.96 ** 2 * b.sdMs ** 2 * rest);
  const half = Math.sqrt(stat ** 2 + (b.runToRun * predicted) ** 2 + fall ** 2 + (boundaries / 2) ** 2);
  // Any slope the steady batches allow may run on for as many batches again as they span: the side it points to
  // widens by what that would add to the rest of the epoch (a fading transient cannot hide in noise this way).
  const limit = MAX_TREND_SHIFT * b.meanMs;
  const horizon = Math.min(rest, b.batchesRun - b.steadyStart);
  const shift = (slope: number): number => Math.max(-limit, Math.min(limit, slope * horizon)) * rest;
  let low = predicted - Math.sqrt(half ** 2 + Math.min(0, shift(b.trendMsPerBatch[0])) ** 2);
  const high = predicted + Math.sqrt(half ** 2 + Math.max(0, shift(b.trendMsPerBatch[1])) ** 2);
  // The quiet floor is this run's CPU work over every core, its batches to come falling as far as the interval allows
  // (twice the fall); a quiet run's own CPU work differs by the run-to-run spread (a resnet epoch under the matrix's
  // load: floor 8.80 s, quiet full epoch 8.70 s; a lite one in session 12 missed a floor without the fall by 1.5 %).
  const quietRest = rest * b.quietMeanMs * (1 - 2 * Math.max(0, b.residualFall)) + boundaries / 2;
  if (b.disturbed) low = Math.min(low, (b.quietObservedMs + quietRest) * (1 - b.runToRun));
  return { predictedMs: predicted, intervalMs: [Math.max(0, low), high] };
};

/** Why a run stopped measuring. @public */
export type StopReason = 'precision-reached' | 'epoch-complete' | 'max-batches' | 'time-budget';

/** What bounds a run whatever its batches say about the epoch. @public */
export interface StopContext {
  readonly batches: number;
  readonly batchesPerEpoch: number;
  readonly cap: number;
  readonly elapsedMs: number;
  readonly budgetMs: number;
  readonly targetPrecision: number;
  readonly minBatches?: number;
}

/**
 * The limits alone: the epoch is complete, the batch cap or the time budget is reached (the budget not before
 * `minBatches`). Null: none is. Cheap, so a caller may check it after every batch and judge the batches less often.
 * @public
 */
export const limitReached = (ctx: StopContext): Exclude<StopReason, 'precision-reached'> | null => {
  if (ctx.batches >= ctx.batchesPerEpoch) return 'epoch-complete';
  if (ctx.batches >= ctx.cap) return 'max-batches';
  // The budget never ends a run before its warm-up and two measured batches: no answer at all helps nobody.
  if (ctx.elapsedMs >= ctx.budgetMs && ctx.batches >= (ctx.minBatches ?? 0)) return 'time-budget';
  return null;
};

/**
 * The stopping rule: stop when the epoch is complete, or when the batch time is steady (no trend) on at least
 * 20 steady batches and the interval's half-width is within `targetPrecision` of the prediction; otherwise at a limit
 * ({@link limitReached}). Null: keep measuring.
 * @public
 */
export const decideStop = (a: RunAssessment, ctx: StopContext): StopReason | null => {
  if (ctx.batches >= ctx.batchesPerEpoch) return 'epoch-complete';
  if (
    !a.trending &&
    !a.disturbed &&
    ctx.batches - a.steadyStart >= MIN_STEADY_BATCHES &&
    a.halfWidthFraction <= ctx.targetPrecision
  )
    return 'precision-reached';
  return limitReached(ctx);
};
