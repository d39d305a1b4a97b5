/** The one clock read the engine needs: monotonic milliseconds, to time a step's phases. @public */
export interface MonotonicClock {
  now(): number;
}
