import type { ProgressPort, ProgressStart, ProgressTask } from '../ports/progress.port';

/** What one task of a {@link RecordingProgress} saw. @public */
export interface RecordedTask {
  readonly start: ProgressStart;
  /** the last count done (advances summed, or the last update) */
  done: number;
  /** the highest count seen (a count that overshot and came back shows here) */
  peak: number;
  /** how many advance/update calls arrived before finish */
  steps: number;
  /** null while the task is open */
  outcome: 'done' | 'failed' | null;
  /** calls that came after finish (a wiring bug when > 0) */
  late: number;
}

/** A progress port that records every task, for asserting what long work reported. @public */
export class RecordingProgress implements ProgressPort {
  readonly tasks: RecordedTask[] = [];

  start(start: ProgressStart): ProgressTask {
    const t: RecordedTask = { start, done: 0, peak: 0, steps: 0, outcome: null, late: 0 };
    this.tasks.push(t);
    const step = (done: number): void => {
      if (t.outcome !== null) {
        t.late += 1;
        return;
      }
      t.done = done;
      t.peak = Math.max(t.peak, done);
      t.steps += 1;
    };
    return {
      advance: (units = 1) => step(t.done + units),
      update: (done) => step(done),
      finish: (outcome = 'done') => {
        t.outcome ??= outcome;
      },
    };
  }

  /** The tasks whose label starts with `prefix`. */
  labelled(prefix: string): RecordedTask[] {
    return this.tasks.filter((t) => t.start.label.startsWith(prefix));
  }
}
