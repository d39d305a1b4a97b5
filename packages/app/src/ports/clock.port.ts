/** Monotonic high-resolution time in milliseconds, and wall time for stamps. @public */
export interface ClockPort {
  now(): number;
  wallTime(): Date;
}
