import type { ProgressPort, ProgressStart, ProgressTask } from '@maou/bench-use-cases';

// Same as SILENT_PROGRESS; kept local so the cloud adapters import only types from the app package.
const SILENT_TASK: ProgressTask = { advance: () => undefined, update: () => undefined, finish: () => undefined };

/** Starts a task on `progress`, or a silent one when the caller gave no progress port. @internal */
export const startProgress = (progress: ProgressPort | undefined, start: ProgressStart): ProgressTask =>
  progress?.start(start) ?? SILENT_TASK;

/** Bytes of one download attempt, taken back if the attempt fails and is retried. @internal */
export interface TransferAttempt {
  add(bytes: number): void;
  rollback(): void;
}

/**
 * Feeds one progress task from parallel object downloads. Counts only bytes that will stay: a failed attempt's
 * bytes are subtracted before its retry, so the count never passes the total and the rate is not inflated.
 * @internal
 */
export class TransferProgress {
  private done = 0;

  constructor(private readonly task: ProgressTask) {}

  attempt(): TransferAttempt {
    let received = 0;
    return {
      add: (bytes) => {
        received += bytes;
        this.move(bytes);
      },
      rollback: () => {
        this.move(-received);
        received = 0;
      },
    };
  }

  /** An object found complete in the cache counts as done at once. */
  cached(bytes: number): void {
    this.move(bytes);
  }

  finish(outcome: 'done' | 'failed'): void {
    this.task.finish(outcome);
  }

  private move(bytes: number): void {
    this.done += bytes;
    this.task.update(this.done);
  }
}
