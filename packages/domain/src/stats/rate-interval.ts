/**
 * A 95 % interval of a rate: the low end, and the high end or null where nothing bounds the rate from above.
 * @public
 */
export type RateCi95 = readonly [number, number | null];

/** A rate's 95 % interval and, when it is open above, why (null when both ends are numbers). @public */
export interface RateInterval {
  readonly ci95: RateCi95;
  readonly note: string | null;
}

/**
 * The interval of `units` per second from the 95 % interval of the milliseconds they take. The time's high end
 * bounds the rate from below and its low end from above; where the low end reaches 0 ms (two or three batches, or
 * scattered ones) no finite upper bound follows from it, so the high end is null and `note` says so, naming `basis`
 * (what the time interval rests on). Writing that end as ∞ or as a bare JSON null hid the reason.
 * @public
 */
export const rateInterval = (units: number, timeMs: readonly [number, number], basis: string): RateInterval => {
  const [lo, hi] = timeMs;
  // (units / ms) × 1000, as the point estimate divides: a zero-width interval then holds its own point
  const low = (units / hi) * 1000;
  return lo > 0
    ? { ci95: [low, (units / lo) * 1000], note: null }
    : { ci95: [low, null], note: `no upper bound: the 95 % interval of ${basis} reaches 0 ms; more batches close it` };
};

/**
 * The one way a rate interval is written (console, HTML, recommendations): "lo–hi", or "≥ lo" and why when it is
 * open above; `withNote: false` leaves the reason out (a table cell whose note is printed once beside the table).
 * @public
 */
export const formatRateInterval = (ci95: RateCi95, note: string | null, withNote = true): string => {
  const [lo, hi] = ci95;
  if (hi !== null) return `${lo.toFixed(1)}–${hi.toFixed(1)}`;
  return withNote && note !== null ? `≥ ${lo.toFixed(1)} (${note})` : `≥ ${lo.toFixed(1)}`;
};
