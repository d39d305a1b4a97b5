/**
 * How much faster (or slower) the rest of a run went than a look at its start predicted, measured in this machine's
 * earlier runs and kept between runs. A look cannot see it in its own batches. Session 5's 66 full epochs fell 2.5 %
 * after their looks; session 11's epochs on the same VM did not fall at all (some rose), so one constant served one
 * day of one machine (docs/epoch-estimate.md, session 12).
 */

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

/** The fall after one look length: decayed sum of the runs' falls and their weight. @public */
export interface FallCut {
  readonly batches: number;
  readonly sum: number;
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
export const emptyFall = (): FallProfile => ({ cuts: FALL_CUTS.map((batches) => ({ batches, sum: 0, weight: 0 })) });

/** The record after one more run's falls (cut → fall, for the cuts the run could measure). @public */
export const mergeFall = (kept: FallProfile | null, run: ReadonlyMap<number, number>): FallProfile => ({
  cuts: FALL_CUTS.map((batches) => {
    const a = kept?.cuts.find((c) => c.batches === batches);
    const f = run.get(batches);
    const clipped = f === undefined ? 0 : Math.max(-FALL_CLIP, Math.min(FALL_CLIP, f));
    return {
      batches,
      sum: (a?.sum ?? 0) * DECAY + clipped,
      weight: (a?.weight ?? 0) * DECAY + (f === undefined ? 0 : 1),
    };
  }),
});

/**
 * The fall for a look of `batchesRun`: at the longest kept cut no longer than the look, or the shortest kept one for a
 * shorter look. Past the longest kept cut it shrinks with the square of the ratio, as the start-up transient it tails
 * does. Null while no cut has about three runs behind it.
 * @public
 */
export const fallAt = (profile: FallProfile | null, batchesRun: number): FallAt | null => {
  const known = (profile?.cuts ?? []).filter((c) => c.weight >= MIN_WEIGHT).sort((a, b) => a.batches - b.batches);
  if (!known.length) return null;
  const c = [...known].reverse().find((x) => x.batches <= batchesRun) ?? known[0]!;
  const beyond = c === known[known.length - 1] ? Math.min(1, (c.batches / Math.max(1, batchesRun)) ** 2) : 1;
  return { fraction: (c.sum / c.weight) * beyond, afterBatches: c.batches, runs: c.weight };
};

/** A stored fall record, or null when `value` is not one. @public */
export const parseFallProfile = (value: unknown): FallProfile | null => {
  const v = value as Partial<FallProfile> | null;
  if (!v || !Array.isArray(v.cuts)) return null;
  const ok = v.cuts.every(
    (c: Partial<FallCut>) =>
      typeof c?.batches === 'number' &&
      Number.isFinite(c.sum) &&
      typeof c.weight === 'number' &&
      Number.isFinite(c.weight) &&
      c.weight >= 0 &&
      Math.abs(c.sum!) <= c.weight * FALL_CLIP + 1e-9,
  );
  return ok ? (v as FallProfile) : null;
};
