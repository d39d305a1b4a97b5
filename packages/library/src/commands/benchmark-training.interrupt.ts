import { interruptionText, type StopRequest } from '@maou/bench-use-cases';
import { REPORT_SCHEMA_VERSION, type Interruption } from '@maou/bench-domain';
import { watchInterrupts, writeJsonNow, type InterruptWatch } from '@maou/bench-infra';
import { withSchema } from '../report-schemas/report-schemas';

/** What `--output-json` holds when a run stopped before it measured anything. */
export interface InterruptedTrainingStub {
  readonly schema_version: typeof REPORT_SCHEMA_VERSION;
  readonly command: 'benchmark-training';
  readonly interrupted: true;
  readonly interruption: Interruption;
}

/** The stub of a run stopped before it measured anything, as written (naming its schema). */
export const interruptedStub = (interruption: Interruption) =>
  withSchema<InterruptedTrainingStub>('benchmark-training-report', {
    schema_version: REPORT_SCHEMA_VERSION,
    command: 'benchmark-training',
    interrupted: true,
    interruption,
  });

/**
 * SIGHUP/SIGINT/SIGTERM for `benchmark-training`: `batchDone` counts batches for the message ("interrupted after N of M
 * batches") and the stub written when the process must exit at once.
 */
export const watchTrainingInterrupts = (
  outputJson: string | undefined,
): { watch: InterruptWatch; batchDone: (planned: number) => void } => {
  const seen = { completed: 0, planned: 0 };
  const watch = watchInterrupts('benchmark-training', (reason) => {
    const interruption = { reason, completed_batches: seen.completed, planned_batches: seen.planned };
    process.stderr.write(`maou benchmark-training: ${interruptionText(interruption)}\n`);
    if (outputJson) writeJsonNow(outputJson, interruptedStub(interruption));
  });
  return {
    watch,
    batchDone: (planned) => {
      Object.assign(seen, { completed: seen.completed + 1, planned });
      watch.markRunning();
    },
  };
};

/** What an aborted AbortSignal's run reports as its interruption's reason. */
export const ABORTED = 'aborted (AbortSignal)';

/** A library caller's AbortSignal as a stop request (the batch study and the dataloader grid stop on it). */
export const signalStop = (signal: AbortSignal | undefined): StopRequest | undefined =>
  signal && {
    get aborted() {
      return signal.aborted;
    },
    get reason() {
      return signal.aborted ? ABORTED : undefined;
    },
  };

/**
 * The run's stop request: the binary's signal watch or the caller's AbortSignal, whichever asks first; `exitCode` is
 * the signal's (129/130/143) or 130 for an abort.
 */
export const stopRequest = (
  watch: InterruptWatch,
  signal?: AbortSignal,
): StopRequest & { exitCode(): number | null } => ({
  get aborted() {
    return watch.aborted || signal?.aborted === true;
  },
  get reason() {
    return watch.reason ?? (signal?.aborted ? ABORTED : undefined);
  },
  lastBatchDone: () => watch.lastBatchDone(),
  exitCode: () => watch.exitCode() ?? (signal?.aborted ? 130 : null),
});
