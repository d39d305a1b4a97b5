import { err, ok, type Result, type ValidationIssue } from '@maou/bench-domain';
import type { OptionSpec, OptionTable } from '@maou/bench-interface';
import { closestName } from './suggest';
import type { GlobalOptions } from './composition-root';
import { GLOBAL_OPTIONS } from './global-options';
import { checkCommand, executeCommand, type CommandSpec, type OutputFlags, type RunHow } from './run-command';
import { BenchmarkRunError, UsageError } from './usage-error';

const camelCase = (flag: string): string => flag.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());

// A list option given one value (`stage3DataPath: 'a.feather'`) is a list of one, as on the command line.
const asGiven = (spec: OptionSpec, value: unknown): unknown =>
  spec.array && !Array.isArray(value) && typeof value === spec.type ? [value] : value;

const typeIssue = (spec: OptionSpec, value: unknown): string | null => {
  const values = spec.array ? (Array.isArray(value) ? (value as unknown[]) : null) : [value];
  if (!values) return `expected a ${spec.type} or an array of ${spec.type}s, got ${JSON.stringify(value)}`;
  const wrong = values.find((v) => typeof v !== spec.type);
  if (wrong !== undefined) return `expected a ${spec.type}, got ${JSON.stringify(wrong)}`;
  const outside = spec.choices && values.find((v) => !spec.choices?.includes(v as string));
  return outside ? `${JSON.stringify(outside)} is not one of ${spec.choices?.join(', ')}` : null;
};

/**
 * Options given in code, read the way yargs reads the same flag table: camelCase names, the table's defaults filled
 * in, and (as the command line's strict parse) an unknown name or a value of the wrong type or outside `choices`
 * refused, with the closest known name suggested. Each issue names the option as the caller wrote it.
 */
export const readOptions = <T>(table: OptionTable, given: object): Result<T, ValidationIssue[]> => {
  const specs = new Map(Object.entries(table).map(([flag, spec]) => [camelCase(flag), spec]));
  const issues: ValidationIssue[] = [];
  const read: Record<string, unknown> = {};
  for (const [name, spec] of specs) if (spec.default !== undefined) read[name] = spec.default;
  for (const [name, value] of Object.entries(given)) {
    if (value === undefined) continue;
    const spec = specs.get(name);
    if (!spec) {
      const near = closestName(name, [...specs.keys()]);
      issues.push({ field: name, message: `unknown option${near ? `; did you mean ${near}?` : ''}` });
      continue;
    }
    const given = asGiven(spec, value);
    const wrong = typeIssue(spec, given);
    if (wrong) issues.push({ field: name, message: wrong });
    read[name] = given;
  }
  return issues.length ? err(issues) : ok(read as T);
};

// The checks name flags as the command line spells them (`--batch-size`); a caller in code wrote `batchSize`.
const asOption = (issue: ValidationIssue): ValidationIssue =>
  issue.field.startsWith('--') ? { ...issue, field: camelCase(issue.field.slice(2)) } : issue;

// A library run logs nothing unless given a log level (the binary's default is warn).
const LIBRARY_GLOBALS = { 'log-level': { ...GLOBAL_OPTIONS['log-level'], default: 'silent' } } as const;

/**
 * A command's spec run from code: the options read against its flag table and the global flags (all but `--json`:
 * stdout has no use in a library call), checked, and run on a container whose ports `how.overrides` replace, until
 * `how.signal` aborts it (already aborted: rejected with its reason before any work). Rejects with `UsageError` for
 * bad options (before any I/O) and `BenchmarkRunError` for a failed run.
 */
export const runAsLibrary = async <A extends GlobalOptions & OutputFlags, V, O>(
  spec: CommandSpec<A, V, O>,
  table: OptionTable,
  options: object,
  how: Pick<RunHow, 'overrides' | 'signal'> = {},
): Promise<O> => {
  how.signal?.throwIfAborted();
  const command = `utility ${spec.name}`;
  const flags = Object.fromEntries(
    Object.entries({ ...table, ...LIBRARY_GLOBALS }).filter(([flag]) => flag !== 'json'),
  );
  const read = readOptions<A>(flags, options);
  if (!read.ok) throw UsageError.of(read.error, command);
  const checked = await checkCommand(spec, read.value);
  if (!checked.ok) throw UsageError.of(checked.error.map(asOption), command);
  const done = await executeCommand(spec, read.value, checked.value, { overrides: how.overrides, signal: how.signal });
  if (!done.ok) throw new BenchmarkRunError(done.error.message, done.error.code);
  return done.value.value;
};
