import { writeFileAtomicSync } from '../files/atomic-file';
import { JSON_REPORT } from '../files/output-kinds';

/**
 * The signals a run answers, with the exit codes a shell gives them (128 + signal number). SIGHUP (the terminal or
 * the ssh session closed) is a request to stop like SIGTERM.
 */
const EXIT_CODES = { SIGHUP: 129, SIGINT: 130, SIGTERM: 143 } as const;
/** SIGHUP, SIGINT or SIGTERM. @public */
export type InterruptSignal = keyof typeof EXIT_CODES;
const SIGNALS: readonly InterruptSignal[] = ['SIGHUP', 'SIGINT', 'SIGTERM'];
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
  /** 129 after SIGHUP, 130 after SIGINT, 143 after SIGTERM, null when no signal came */
  exitCode(): number | null;
  /** from the first batch on, a signal stops the run after the current batch; before it, the process exits at once */
  markRunning(): void;
  /**
   * The last batch is done and the report is complete (it is being finished and written): a signal from now on
   * changes nothing in it and the run exits 0, saying so; a second one exits at once: a file already written stays, one
   * still being written is dropped (its temporary file goes), so a complete report is never replaced by less.
   */
  lastBatchDone(): void;
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
  phase: 'starting' | 'running' | 'finishing';
  grace?: ReturnType<typeof setTimeout>;
}

/**
 * The one owner of SIGHUP, SIGINT and SIGTERM in the process (nothing else listens). A command that watches (`watch`)
 * owns them: the first signal asks its run to stop after the current batch, a second one (or the grace period running
 * out, or a signal before the first batch) exits at once with 129/130/143 after `onExitNow`; after the last batch
 * (`lastBatchDone`) see there. With no command watching, Ctrl-C closes the open
 * loaders (terminating their workers) and is raised again, so the default action, or the embedding application's
 * own handler, runs as if we had never listened.
 * @internal
 */
export class ProcessInterrupts {
  private readonly open = new Set<Closable>();
  private command: CommandState | null = null;
  private readonly handled = new Set<InterruptSignal>();
  private readonly handler = (signal: InterruptSignal): void => this.onSignal(signal);
  // Start-up: from `listen` until a command watches or `endStartup`, a signal is held for the command to answer.
  private startingUp = false;
  private held: InterruptSignal | undefined;

  /**
   * @param listening whether it handles signals at all: the `maou` binary's process does (listenToProcessSignals); a
   *   library run inside someone else's process leaves its signals to it and is stopped by its AbortSignal instead.
   */
  constructor(
    private readonly proc: SignalProcess,
    private listening = true,
  ) {}

  /**
   * From now on, handles SIGHUP/SIGINT/SIGTERM while a command or a loader runs. Until a command watches (or
   * `endStartup`), a signal is held, so the command answers it as one that came before its first batch; a second
   * one exits at once.
   */
  listen(): void {
    this.listening = true;
    this.startingUp = true;
    this.sync();
  }

  /**
   * Start-up is over without a command that watches (help, a usage error, a command that keeps the default action): a
   * held signal takes its default action now.
   */
  async endStartup(): Promise<void> {
    if (!this.startingUp) return;
    // A signal Node has queued but not yet dispatched is dropped when its last listener goes: wait one turn of the
    // event loop (signals are dispatched before immediates) so it is held first.
    await new Promise((resolve) => setImmediate(resolve));
    if (!this.startingUp) return;
    this.startingUp = false;
    const held = this.held;
    this.held = undefined;
    this.sync();
    if (held !== undefined && this.proc.listenerCount(held) === 0) this.proc.raise(held);
  }

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
    const state: CommandState = { command, onExitNow, reason: undefined, phase: 'starting' };
    this.command = state;
    this.startingUp = false;
    this.sync();
    const held = this.held;
    this.held = undefined;
    // As if it came now, once the caller holds its watch (a microtask: before the run's first await).
    if (held !== undefined) queueMicrotask(() => this.stopCommand(state, held));
    return {
      get aborted() {
        return state.reason !== undefined;
      },
      get reason() {
        return state.reason;
      },
      exitCode: () => (state.reason === undefined ? null : EXIT_CODES[state.reason]),
      markRunning: () => {
        if (state.phase === 'starting') state.phase = 'running';
      },
      lastBatchDone: () => {
        state.phase = 'finishing';
        clearTimeout(state.grace);
        if (state.reason !== undefined) this.noteComplete(state);
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

  // Listeners exist only in a listening process and while someone needs them: a command watching (every signal), or
  // an open loader (Ctrl-C only).
  private sync(): void {
    for (const s of SIGNALS) {
      const wanted =
        this.listening && (this.startingUp || this.command !== null || (s === 'SIGINT' && this.open.size > 0));
      if (wanted === this.handled.has(s)) continue;
      if (wanted) this.proc.on(s, this.handler);
      else this.proc.removeListener(s, this.handler);
      if (wanted) this.handled.add(s);
      else this.handled.delete(s);
    }
  }

  private onSignal(signal: InterruptSignal): void {
    const command = this.command;
    if (command) return this.stopCommand(command, signal);
    if (this.startingUp) {
      if (this.held === undefined) return void (this.held = signal);
      return this.proc.exit(EXIT_CODES[signal]);
    }
    void this.closeAllThenRaise(signal);
  }

  private noteComplete(state: CommandState): void {
    process.stderr.write(
      `maou ${state.command}: ${state.reason} came after the last batch; the report is complete and is written in full ` +
        `(exit 0; send it again to stop at once, dropping what is not yet written)\n`,
    );
  }

  private stopCommand(state: CommandState, signal: InterruptSignal): void {
    const exitNow = (sig: InterruptSignal): void => {
      try {
        state.onExitNow(sig);
      } finally {
        this.proc.exit(EXIT_CODES[sig]);
      }
    };
    if (state.phase === 'finishing') {
      if (state.reason === undefined) {
        state.reason = signal;
        return this.noteComplete(state);
      }
      process.stderr.write(
        `maou ${state.command}: ${signal} again; stopping at once, a report not yet written is dropped\n`,
      );
      return this.proc.exit(EXIT_CODES[signal]);
    }
    if (state.reason !== undefined || state.phase === 'starting') {
      state.reason ??= signal;
      return exitNow(state.reason);
    }
    state.reason = signal;
    process.stderr.write(
      `maou ${state.command}: ${signal} received; stopping after the current batch (send it again to stop at once)\n`,
    );
    state.grace = setTimeout(() => exitNow(signal), GRACE_MS);
    state.grace.unref();
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
export const processInterrupts = new ProcessInterrupts(
  {
    on: (signal, listener) => void process.on(signal, listener),
    removeListener: (signal, listener) => void process.removeListener(signal, listener),
    listenerCount: (signal) => process.listenerCount(signal),
    exit: (code) => process.exit(code),
    raise: (signal) => void process.kill(process.pid, signal),
  },
  false,
);

/**
 * Makes this process answer SIGHUP/SIGINT/SIGTERM while a command runs (stop after the batch, write what was
 * measured, exit 129/130/143). Only the `maou` binary calls it: code that imports the packages keeps its own signals.
 * @public
 */
export const listenToProcessSignals = (): void => processInterrupts.listen();

/** The binary's start-up is over and no command watches: a held signal takes its default action now. @public */
export const endSignalStartup = (): Promise<void> => processInterrupts.endStartup();

/** SIGHUP/SIGINT/SIGTERM for one command (see `ProcessInterrupts`). @public */
export const watchInterrupts = (command: string, onExitNow: (reason: InterruptSignal) => void): InterruptWatch =>
  processInterrupts.watch(command, onExitNow);

/** Writes JSON atomically and synchronously: usable while the process is about to exit. @public */
export const writeJsonNow = (path: string, payload: unknown): void =>
  writeFileAtomicSync(path, `${JSON.stringify(payload, null, 2)}\n`, JSON_REPORT);
