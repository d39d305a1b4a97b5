/**
 * How much faster (or slower) the rest of a run went than a look at its start predicted, measured in this machine's
 * earlier runs and kept between runs. A look cannot see it in its own batches. Session 5's 66 full epochs fell 2.5 %
 * after their looks; session 11's epochs on the same VM did not fall at all (some rose), so one constant served one
 * day of one machine (ADR 0014).
 */

/**
 * How much faster the batches still to come run than the steady ones, which a capped run cannot see, on a machine
 * with no fall measured yet: after the first 40 % of 66 full epochs (session 5: both presets, batch 32–512, 48–1,000
 * batches) the rest ran on average 2.5 % faster (55 of 66). Session 11's epochs on the same VM did not fall, so a
 * machine's own runs move it once about three have measured it, as far as they agree. The prediction counts the fall,
 * and the interval allows it to be anywhere from none to twice that.
 * @public
 */
export const RESIDUAL_FALL = 0.025;
/**
 * How far a machine's true fall may stray from the constant: the runs' mean counts in proportion to how well it is
 * known against this. Runs that agree are believed at once; runs as scattered as one look's wander (8.6 % sd between
 * 12 identical runs on the 2-core VM, session 14) count for little until many have measured it. Replaying the 72
 * quiet short runs kept in sessions 10–14 with a fresh record per invocation, 0.02 took the mean |error| from 7.25 to
 * 6.96 % (median 5.35 to 5.05 %) and coverage from 70 to 72 (ADR 0014).
 */
export const FALL_PRIOR_SPREAD = 0.02;

/** Look lengths, in batches run, after which the fall is kept. @public */
export const FALL_CUTS: readonly number[] = [100, 200, 500, 1000];
/** A cut is measured only where the rest of the run is at least this many times the look (users look at 1–10 %). */
export const FALL_HORIZON = 9;
/** Each run the record keeps, the earlier ones count this much less (as for the wander). */
const DECAY = 0.9;
/** Fewest runs (after decay) at a cut before the record speaks for it: about three. */
const MIN_WEIGHT = 2.5;
/** One run's fall is clipped to this: a run that a neighbour slowed for minutes must not rule the next ten. */
export const FALL_CLIP = 0.15;

/** The fall after one look length: decayed sum of the runs' falls, of their squares, and their weight. @public */
export interface FallCut {
  readonly batches: number;
  readonly sum: number;
  readonly sumSq: number;
  readonly weight: number;
}

/** A machine's fall after each look length, pooled over its runs (newest weighted most). @public */
export interface FallProfile {
  readonly cuts: readonly FallCut[];
}

/** The fall a look of some length is projected with. @public */
export interface FallAt {
  /** share by which the rest of the epoch runs faster than the look's steady mean (negative: slower) */
  readonly fraction: number;
  /** the kept look length it comes from */
  readonly afterBatches: number;
  /** decayed number of runs behind it */
  readonly runs: number;
}

/** A machine with no fall measured yet. @public */
export const emptyFall = (): FallProfile => ({
  cuts: FALL_CUTS.map((batches) => ({ batches, sum: 0, sumSq: 0, weight: 0 })),
});

/** The record after one more run's falls (cut → fall, for the cuts the run could measure). @public */
export const mergeFall = (kept: FallProfile | null, run: ReadonlyMap<number, number>): FallProfile => ({
  cuts: FALL_CUTS.map((batches) => {
    const a = kept?.cuts.find((c) => c.batches === batches);
    const f = run.get(batches);
    const clipped = f === undefined ? 0 : Math.max(-FALL_CLIP, Math.min(FALL_CLIP, f));
    return {
      batches,
      sum: (a?.sum ?? 0) * DECAY + clipped,
      sumSq: (a?.sumSq ?? 0) * DECAY + clipped ** 2,
      weight: (a?.weight ?? 0) * DECAY + (f === undefined ? 0 : 1),
    };
  }),
});

/**
 * The fall for a look of `batchesRun`: at the longest kept cut no longer than the look, or the shortest kept one for a
 * shorter look, drawn toward the constant as far as the runs disagree (`FALL_PRIOR_SPREAD`). Past the longest kept
 * cut it shrinks with the square of the ratio, as the start-up transient it tails does. Null while no cut has about
 * three runs behind it.
 * @public
 */
export const fallAt = (profile: FallProfile | null, batchesRun: number): FallAt | null => {
  const known = (profile?.cuts ?? []).filter((c) => c.weight >= MIN_WEIGHT).sort((a, b) => a.batches - b.batches);
  if (!known.length) return null;
  const c = [...known].reverse().find((x) => x.batches <= batchesRun) ?? known[0]!;
  const beyond = c === known[known.length - 1] ? Math.min(1, (c.batches / Math.max(1, batchesRun)) ** 2) : 1;
  const mean = c.sum / c.weight;
  // the runs' spread about their mean (weight > 1 here), and how much their mean is to be believed against it
  const variance = (Math.max(0, c.sumSq / c.weight - mean ** 2) * c.weight) / (c.weight - 1);
  const trust = c.weight / (c.weight + variance / FALL_PRIOR_SPREAD ** 2);
  const fraction = RESIDUAL_FALL + (mean - RESIDUAL_FALL) * trust;
  return { fraction: fraction * beyond, afterBatches: c.batches, runs: c.weight };
};

/** A stored fall record, or null when `value` is not one. @public */
export const parseFallProfile = (value: unknown): FallProfile | null => {
  const v = value as Partial<FallProfile> | null;
  if (!v || !Array.isArray(v.cuts)) return null;
  // kept before the runs' spread was (session 14): the fall is measured again from the next run
  if (v.cuts.every((c: Partial<FallCut>) => c?.sumSq === undefined)) return emptyFall();
  const ok = v.cuts.every(
    (c: Partial<FallCut>) =>
      typeof c?.batches === 'number' &&
      Number.isFinite(c.sum) &&
      typeof c.weight === 'number' &&
      Number.isFinite(c.weight) &&
      c.weight >= 0 &&
      Math.abs(c.sum!) <= c.weight * FALL_CLIP + 1e-9 &&
      typeof c.sumSq === 'number' &&
      // no more than every run at the clip, no less than the runs all equal (Cauchy–Schwarz)
      c.sumSq <= c.weight * FALL_CLIP ** 2 + 1e-9 &&
      c.sumSq * c.weight >= c.sum! ** 2 - 1e-9,
  );
  return ok ? (v as FallProfile) : null;
};
