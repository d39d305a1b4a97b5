import { performance } from 'node:perf_hooks';
import type { ClockPort } from '@maou/bench-use-cases';

/** performance.now() for intervals, Date for stamps. @public */
export class SystemClockAdapter implements ClockPort {
  now(): number {
    return performance.now();
  }
  wallTime(): Date {
    return new Date();
  }
}
