import { writeFileAtomicSync } from '../files/atomic-file';

/** The signals a run answers, with the exit codes a shell gives them (128 + signal number). */
const EXIT_CODES = { SIGINT: 130, SIGTERM: 143 } as const;
/** SIGINT or SIGTERM. @public */
export type InterruptSignal = keyof typeof EXIT_CODES;
const SIGNALS: readonly InterruptSignal[] = ['SIGINT', 'SIGTERM'];
// A batch that does not finish in this time after the signal is not worth waiting for.
const GRACE_MS = 30_000;

/** Something with an async close (a loader and its workers), shut down on Ctrl-C. @internal */
export interface Closable {
  close(): Promise<void>;
}

/** A command's stop request: the use case checks `aborted` between batches. @public */
export interface InterruptWatch {
  readonly aborted: boolean;
  readonly reason: InterruptSignal | undefined;
  /** 130 after SIGINT, 143 after SIGTERM, null when no signal came */
  exitCode(): number | null;
  /** from the first batch on, a signal stops the run after the current batch; before it, the process exits at once */
  markRunning(): void;
  /** stops listening, unless a signal came (then the process is ending, and a second signal still exits at once) */
  dispose(): void;
}

/** What of `process` the signal handling uses; a fake in specs. @internal */
export interface SignalProcess {
  on(signal: InterruptSignal, listener: (signal: InterruptSignal) => void): void;
  removeListener(signal: InterruptSignal, listener: (signal: InterruptSignal) => void): void;
  listenerCount(signal: InterruptSignal): number;
  exit(code: number): void;
  raise(signal: InterruptSignal): void;
}

interface CommandState {
  readonly command: string;
  readonly onExitNow: (reason: InterruptSignal) => void;
  reason: InterruptSignal | undefined;
  running: boolean;
}

/**
 * The one place SIGINT and SIGTERM are handled. A command that watches (`watch`) owns them: the first signal asks
 * its run to stop after the current batch, a second one (or the grace period running out, or a signal before the
 * first batch) exits at once with 130/143 after `onExitNow`. With no command watching, Ctrl-C closes the open
 * loaders (terminating their workers) and is raised again, so the default action, or the embedding application's
 * own handler, runs as if we had never listened.
 * @internal
 */
export class ProcessInterrupts {
  private readonly open = new Set<Closable>();
  private command: CommandState | null = null;
  private readonly listening = new Set<InterruptSignal>();
  private readonly handler = (signal: InterruptSignal): void => this.onSignal(signal);

  constructor(private readonly proc: SignalProcess) {}

  /** Closes `c` on Ctrl-C while no command watches; `release` when it closed on its own. */
  closeOnInterrupt(c: Closable): void {
    this.open.add(c);
    this.sync();
  }

  release(c: Closable): void {
    this.open.delete(c);
    this.sync();
  }

  /** SIGINT/SIGTERM for one command; `onExitNow` writes what can be written before an immediate exit (synchronously). */
  watch(command: string, onExitNow: (reason: InterruptSignal) => void): InterruptWatch {
    const state: CommandState = { command, onExitNow, reason: undefined, running: false };
    this.command = state;
    this.sync();
    return {
      get aborted() {
        return state.reason !== undefined;
      },
      get reason() {
        return state.reason;
      },
      exitCode: () => (state.reason === undefined ? null : EXIT_CODES[state.reason]),
      markRunning: () => {
        state.running = true;
      },
      // After a signal the process is ending: the command keeps the signals, so a late one still exits at once and
      // nothing else (a loader's Ctrl-C re-raise) can kill the process while it writes the partial report.
      dispose: () => {
        if (state.reason !== undefined || this.command !== state) return;
        this.command = null;
        this.sync();
      },
    };
  }

  // Listeners exist only while someone needs them: a command watching (both signals), or an open loader (Ctrl-C only,
  // so an embedding application's own SIGTERM handling is left alone).
  private sync(): void {
    for (const s of SIGNALS) {
      const wanted = this.command !== null || (s === 'SIGINT' && this.open.size > 0);
      if (wanted === this.listening.has(s)) continue;
      if (wanted) this.proc.on(s, this.handler);
      else this.proc.removeListener(s, this.handler);
      if (wanted) this.listening.add(s);
      else this.listening.delete(s);
    }
  }

  private onSignal(signal: InterruptSignal): void {
    const command = this.command;
    if (command) return this.stopCommand(command, signal);
    void this.closeAllThenRaise(signal);
  }

  private stopCommand(state: CommandState, signal: InterruptSignal): void {
    const exitNow = (sig: InterruptSignal): void => {
      try {
        state.onExitNow(sig);
      } finally {
        this.proc.exit(EXIT_CODES[sig]);
      }
    };
    if (state.reason !== undefined || !state.running) {
      state.reason ??= signal;
      return exitNow(state.reason);
    }
    state.reason = signal;
    process.stderr.write(
      `maou ${state.command}: ${signal} received; stopping after the current batch (send it again to stop at once)\n`,
    );
    setTimeout(() => exitNow(signal), GRACE_MS).unref();
  }

  private async closeAllThenRaise(signal: InterruptSignal): Promise<void> {
    const all = [...this.open];
    this.open.clear();
    this.sync();
    await Promise.allSettled(all.map((c) => c.close()));
    if (this.proc.listenerCount(signal) === 0) this.proc.raise(signal);
  }
}

/** The process-wide instance: loaders and commands share it. @public */
export const processInterrupts = new ProcessInterrupts({
  on: (signal, listener) => void process.on(signal, listener),
  removeListener: (signal, listener) => void process.removeListener(signal, listener),
  listenerCount: (signal) => process.listenerCount(signal),
  exit: (code) => process.exit(code),
  raise: (signal) => void process.kill(process.pid, signal),
});

/** SIGINT/SIGTERM for one command (see `ProcessInterrupts`). @public */
export const watchInterrupts = (command: string, onExitNow: (reason: InterruptSignal) => void): InterruptWatch =>
  processInterrupts.watch(command, onExitNow);

/** Writes JSON atomically and synchronously: usable while the process is about to exit. @public */
export const writeJsonNow = (path: string, payload: unknown): void =>
  writeFileAtomicSync(path, `${JSON.stringify(payload, null, 2)}\n`);
