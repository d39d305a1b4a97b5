import type { ClockPort } from '../ports/clock.port';

/** A clock that only moves when told to. @public */
export class FakeClock implements ClockPort {
  constructor(private t = 0) {}
  now(): number {
    return this.t;
  }
  wallTime(): Date {
    return new Date(Date.UTC(2026, 0, 1) + this.t);
  }
  advance(ms: number): void {
    this.t += ms;
  }
}
