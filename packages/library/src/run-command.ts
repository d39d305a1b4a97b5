import type { DependencyContainer } from '@maou/bench-use-cases';
import { err, ok, type Result, type ValidationIssue } from '@maou/bench-domain';
import { writeJsonReport } from '@maou/bench-infra';
import { createContainer, type ContainerOptions, type GlobalOptions, type PortOverrides } from './composition-root';
import { runOutputIssues, type RunOutputs } from './output/run-output-checks';
import { oneRunAtATime } from './run-queue';

/** The output flags a command may have; the runner writes each. */
export interface OutputFlags {
  readonly outputJson?: string;
  readonly json?: boolean;
  readonly reportHtml?: string;
}

/** A run that ended without a result: 1 failed, 130/143 stopped by a signal; `outputJson` is what `--output-json` gets. */
export interface CommandFailure {
  readonly code: number;
  readonly message: string;
  readonly outputJson?: unknown;
}

/** What a finished run shows: `payload` on stdout with `--json` and in `--output-json`, `text` otherwise. */
export interface CommandView {
  readonly payload: unknown;
  readonly text: string;
  readonly writeHtml?: (path: string) => Promise<Result<unknown, { readonly message: string }>>;
  /** a result that still ends non-zero, after it was written (a run cut short by a signal, a sweep of which no point ran) */
  readonly exit?: { readonly code: number; readonly message: string };
}

/**
 * One command, as the runner drives it: `validate` (the interface's checks; no I/O besides reading the machine's
 * limits), the paths it will write, the run itself on a container from the composition root, and its view.
 */
export interface CommandSpec<A extends GlobalOptions & OutputFlags, V, O> {
  readonly name: string;
  validate(args: A): Result<V, ValidationIssue[]> | Promise<Result<V, ValidationIssue[]>>;
  /** paths besides --output-json and --report-html that the run writes, checked before it starts */
  outputs?(args: A, valid: V): Omit<RunOutputs, 'outputJson' | 'reportHtml'>;
  container?(args: A, valid: V): Omit<ContainerOptions, keyof GlobalOptions>;
  /** whether the run answers the binary's SIGHUP/SIGINT/SIGTERM itself (`watchInterrupts`); others keep the default */
  answersSignals?(valid: V): boolean;
  /** notes on the validated options that the binary prints on stderr before the run (a library run prints nothing) */
  notes?(valid: V): readonly string[];
  run(container: DependencyContainer, valid: V, args: A, context: RunContext): Promise<Result<O, CommandFailure>>;
  present(out: O, valid: V, args: A): CommandView;
}

/** The spec's checks and every output path it will write: the issues, or the validated options. No I/O but stat. */
export const checkCommand = async <A extends GlobalOptions & OutputFlags, V, O>(
  spec: CommandSpec<A, V, O>,
  args: A,
): Promise<Result<V, ValidationIssue[]>> => {
  const checked = await spec.validate(args);
  const issues: ValidationIssue[] = [
    ...(checked.ok ? [] : checked.error),
    ...runOutputIssues({
      outputJson: args.outputJson,
      reportHtml: args.reportHtml,
      ...(checked.ok ? spec.outputs?.(args, checked.value) : {}),
    }),
  ];
  return checked.ok && !issues.length ? checked : err(issues);
};

/** A finished run: what it produced, and how it was shown. */
export interface CommandOutcome<O> {
  readonly value: O;
  readonly view: CommandView;
}

/**
 * What a run is told: `signal`, the caller's cancellation (a library run's AbortSignal; the binary stops runs by its
 * signal handlers); `queuedMs`, how long it waited for the runs before it in this process (`oneRunAtATime`).
 */
export interface RunContext {
  readonly signal?: AbortSignal;
  readonly queuedMs: number;
}

/** How a checked command runs: ports replaced, the caller's cancellation, the binary's progress bars. */
export interface RunHow {
  readonly overrides?: PortOverrides;
  readonly signal?: AbortSignal;
  readonly progressOnStderr?: boolean;
}

/**
 * Runs a checked command on a container from the composition root (`how.overrides` replace ports) and writes
 * `--output-json` and `--report-html`; a failed run's stub still goes to `--output-json`. Shared by the command line
 * and the library entry points.
 */
export const executeCommand = async <A extends GlobalOptions & OutputFlags, V, O>(
  spec: CommandSpec<A, V, O>,
  args: A,
  valid: V,
  how: RunHow = {},
): Promise<Result<CommandOutcome<O>, CommandFailure>> => {
  const { overrides, signal, progressOnStderr } = how;
  const options = { logLevel: args.logLevel, progressOnStderr, ...spec.container?.(args, valid) };
  const container = createContainer(options, overrides);
  const result = await oneRunAtATime((queuedMs) => spec.run(container, valid, args, { signal, queuedMs }));
  if (!result.ok) {
    if (result.error.outputJson !== undefined && args.outputJson)
      await writeJsonReport(result.error.outputJson, args.outputJson);
    return result;
  }
  const view = spec.present(result.value, valid, args);
  if (args.outputJson) await writeJsonReport(view.payload, args.outputJson);
  if (args.reportHtml && view.writeHtml) {
    const html = await view.writeHtml(args.reportHtml);
    if (!html.ok) return err({ code: 1, message: html.error.message });
  }
  return ok({ value: result.value, view });
};
