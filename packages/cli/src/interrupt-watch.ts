import { writeFileAtomicSync } from '@maou/bench-infra';

const EXIT_CODES = { SIGINT: 130, SIGTERM: 143 } as const;
type Watched = keyof typeof EXIT_CODES;
// A batch that does not finish in this time after the signal is not worth waiting for.
const GRACE_MS = 30_000;

/** SIGINT/SIGTERM turned into a stop request the use case checks between batches. @public */
export interface InterruptWatch {
  readonly aborted: boolean;
  readonly reason: Watched | undefined;
  /** 130 after SIGINT, 143 after SIGTERM, null when no signal came */
  exitCode(): number | null;
  /** from the first batch on, a signal stops the run after the current batch; before it, the process exits at once */
  markRunning(): void;
  /** stops listening, unless a signal came (then the process is ending, and a second signal still exits at once) */
  dispose(): void;
}

/** Writes JSON atomically and synchronously: usable while the process is about to exit. @public */
export const writeJsonNow = (path: string, payload: unknown): void => writeFileAtomicSync(path, `${JSON.stringify(payload, null, 2)}\n`);

/**
 * Watches SIGINT and SIGTERM for one command. The first signal asks the run to stop (the use case finishes the
 * current batch and reports what it measured); a second one, or the grace period running out, exits at once with
 * 130/143. `onExitNow` writes what can be written before such an exit (it must be synchronous).
 * @public
 */
export const watchInterrupts = (command: string, onExitNow: (reason: Watched) => void): InterruptWatch => {
  let reason: Watched | undefined;
  let running = false;
  const exitNow = (sig: Watched): never => {
    try {
      onExitNow(sig);
    } finally {
      process.exit(EXIT_CODES[sig]);
    }
  };
  const handler = (sig: Watched): void => {
    if (reason !== undefined || !running) {
      reason ??= sig;
      exitNow(reason);
    }
    reason = sig;
    process.stderr.write(`maou ${command}: ${sig} received; stopping after the current batch (send it again to stop at once)\n`);
    setTimeout(() => exitNow(sig), GRACE_MS).unref();
  };
  const signals: Watched[] = ['SIGINT', 'SIGTERM'];
  for (const s of signals) process.on(s, handler);
  return {
    get aborted() { return reason !== undefined; },
    get reason() { return reason; },
    exitCode: () => (reason === undefined ? null : EXIT_CODES[reason]),
    markRunning: () => { running = true; },
    // After a signal the process is ending: the handlers stay, so a late re-raise (the loader's Ctrl-C handler raises
    // SIGINT again once no one else listens) cannot kill it while it writes the partial report.
    dispose: () => { if (reason === undefined) for (const s of signals) process.removeListener(s, handler); },
  };
};
