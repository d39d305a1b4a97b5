/** What a long piece of work announces when it starts. @public */
export interface ProgressStart {
  /** short human label, e.g. "benchmark batches" or "download s3://bucket/key" */
  readonly label: string;
  /** units expected in all; null when unknown (no percentage or ETA then) */
  readonly total: number | null;
  /** what is counted: "batches", "samples", "files"; "bytes" is shown as KiB/MiB/GiB */
  readonly unit: string;
}

/** Handle of one running task. @public */
export interface ProgressTask {
  /** counts `units` more as done (default 1) */
  advance(units?: number): void;
  /** sets the absolute count done */
  update(done: number): void;
  /** ends the task; `outcome` 'failed' marks it as stopped early */
  finish(outcome?: 'done' | 'failed'): void;
}

/**
 * Reports progress of long work (data generation, downloads, calibration, benchmark batches) to the user.
 * Adapters decide how: bars on a terminal, throttled lines elsewhere, nothing when silenced.
 * @public
 */
export interface ProgressPort {
  start(task: ProgressStart): ProgressTask;
}

/** A progress port that shows nothing, for tests and for callers that were given none. @public */
export const SILENT_PROGRESS: ProgressPort = {
  start: () => ({ advance: () => undefined, update: () => undefined, finish: () => undefined }),
};
