import { formatIssues } from '@maou/bench-domain';
import {
  checkCommand,
  executeCommand,
  helpPointer,
  type CommandSpec,
  type GlobalOptions,
  type OutputFlags,
} from '@maou/bench-app/commands';
import { endSignalStartup } from '@maou/bench-infra';
import { emitResult } from './output/emit-result';

/**
 * Validates, checks every output path, resolves and runs, then writes the result: `--output-json`, `--report-html`,
 * stdout. Exit codes: 2 bad flags or an unwritable path (before anything is read), 1 a failed run, 130/143 a signal.
 */
export const runCommand = async <A extends GlobalOptions & OutputFlags, V, O>(
  spec: CommandSpec<A, V, O>,
  args: A,
): Promise<void> => {
  const fail = (code: number, message: string): void => {
    process.stderr.write(`maou ${spec.name}: ${message}\n`);
    process.exitCode = code;
  };
  const checked = await checkCommand(spec, args);
  if (!checked.ok)
    return fail(2, `invalid options\n${formatIssues(checked.error)}\n${helpPointer(`utility ${spec.name}`)}`);
  for (const note of spec.notes?.(checked.value) ?? []) process.stderr.write(`maou ${spec.name}: note: ${note}\n`);
  // A command that watches takes over a signal held since start-up; any other leaves it its default action.
  if (!spec.answersSignals?.(checked.value)) await endSignalStartup();
  const done = await executeCommand(spec, args, checked.value, { progressOnStderr: true });
  if (!done.ok) return fail(done.error.code, done.error.message);
  const { view } = done.value;
  emitResult(view.payload, view.text, args);
  if (view.exit) fail(view.exit.code, view.exit.message);
};
