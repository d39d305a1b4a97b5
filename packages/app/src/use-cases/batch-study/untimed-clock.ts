import type { ClockPort } from '../../ports/clock.port';

/** The clock of untimed steps (noise pass, max-batch tries): nothing they do is a measurement. @internal */
export const UNTIMED_CLOCK: ClockPort = { now: () => 0, wallTime: () => new Date(0) };
