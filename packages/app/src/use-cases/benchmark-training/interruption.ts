import type { Interruption } from '@maou/bench-domain';
import { StepFailure } from '../step-failure';
import type { BenchmarkTrainingError } from './benchmark-training.errors';
import type { StopRequest } from './benchmark-training.input';

/** Why and when a stopped run stopped. */
export const interruptionOf = (stop: StopRequest | undefined, completed: number, planned: number): Interruption => ({
  reason: stop?.reason === undefined ? 'stop requested' : String(stop.reason),
  completed_batches: completed,
  planned_batches: planned,
});

/** "interrupted after N of M batches", the line a stopped run ends with (M is 0 when no batch was planned yet). @public */
export const interruptionText = (i: Interruption): string =>
  i.planned_batches === 0
    ? `interrupted before the first batch (${i.reason})`
    : `interrupted after ${i.completed_batches} of ${i.planned_batches} batches (${i.reason})`;

/** A run stopped before two batches were measured: there is nothing to report but the interruption. */
export const interruptedFailure = (
  stop: StopRequest | undefined,
  completed: number,
  planned: number,
): StepFailure<BenchmarkTrainingError> => {
  const interruption = interruptionOf(stop, completed, planned);
  return new StepFailure({ kind: 'interrupted', message: interruptionText(interruption), interruption });
};
