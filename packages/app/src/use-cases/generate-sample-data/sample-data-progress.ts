import type { ProgressPort, ProgressTask } from '../../ports/progress.port';

/** Phased sample-data progress: a callback for the generator and a way to close whatever task is open. @public */
export interface SampleDataProgress {
  /** matches the generator's `onProgress(done, total, phase)` */
  readonly onProgress: (done: number, total: number, phase: string) => void;
  finish(outcome?: 'done' | 'failed'): void;
}

/**
 * One progress task per generation phase ("games", "legal moves", "writing"); a new phase closes the previous
 * one, so each line has its own total and rate. Shared by `generate-sample-data` and the embedded sample source.
 * @public
 */
export const sampleDataProgress = (progress: ProgressPort, label = 'sample data'): SampleDataProgress => {
  const tasks = new Map<string, ProgressTask>();
  return {
    onProgress: (done, total, phase) => {
      let task = tasks.get(phase);
      if (!task) {
        for (const t of tasks.values()) t.finish();
        task = progress.start({
          label: `${label}: ${phase}`,
          total,
          unit: phase === 'writing' ? 'files' : 'positions',
        });
        tasks.set(phase, task);
      }
      task.update(done);
    },
    // Finishing twice is a no-op for a task, so closing all of them is safe.
    finish: (outcome = 'done') => {
      for (const t of tasks.values()) t.finish(outcome);
    },
  };
};
