import type { MonotonicClock } from '@maou/bench-engine/contracts';

/** Monotonic high-resolution time in milliseconds (what the engine times steps with), and wall time for stamps. @public */
export interface ClockPort extends MonotonicClock {
  wallTime(): Date;
}
