/**
 * Rate over a sliding time window, so the ETA follows the current speed (after warm-up, or when a
 * download stalls) instead of the average since the start.
 * @internal
 */
export class RateMeter {
  private readonly points: { t: number; done: number }[] = [];

  constructor(private readonly windowMs = 10_000) {}

  record(tMs: number, done: number): void {
    this.points.push({ t: tMs, done });
    // Keep one point older than the window so the rate always spans the whole window.
    while (this.points.length > 2 && this.points[1]!.t <= tMs - this.windowMs) this.points.shift();
  }

  /** Units per second; NaN until two points at distinct times exist. */
  perSecond(): number {
    const first = this.points[0];
    const last = this.points.at(-1);
    if (!first || !last || last.t <= first.t) return Number.NaN;
    return ((last.done - first.done) * 1000) / (last.t - first.t);
  }
}
