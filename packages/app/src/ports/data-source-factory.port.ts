import type { DataSourceSpec, NumberBounds, Stage, ValidationIssue } from '@maou/bench-domain';
import type { DataSourcePort } from './data-source.port';

/** Opens the datasource a spec names, by its kind (the registered datasource plug-ins). @public */
export interface DataSourceFactoryPort {
  open(spec: DataSourceSpec, stage: Stage, sampleRatio: number | null): Promise<DataSourcePort>;
}

/** One flag a datasource plug-in adds to the commands that read data: its help and, for a number, its bounds. @public */
export interface SourceFlag {
  readonly type: 'number' | 'string' | 'boolean';
  readonly describe: string;
  readonly array?: boolean;
  /** a number flag's range, checked before any I/O (the issue names the flag) */
  readonly bounds?: NumberBounds;
  /** a number flag's default: `--help` shows it and the plug-in's parser falls back to it (`numberFlag`) */
  readonly default?: number;
  /** the `--help` heading; the plug-in's own heading when absent */
  readonly group?: string;
  /** the stages it applies to (a command for one stage shows only its flags); absent: every stage */
  readonly stages?: readonly Stage[];
}

/** What a plug-in's parser is given besides its flags. @public */
export interface SourceRun {
  readonly stage: Stage;
  /** `--seed` (the run's, also the sampling seed) */
  readonly seed: number;
  /** `--sample-ratio`, when given */
  readonly sampleRatio?: number;
  /** the per-user cache directory for data a source generates, and how to name it in a message when it is not a flag */
  readonly cache: { readonly dir: string; readonly origin: string };
}

/** A parsed spec with the notes the user should see, or the issues, each naming its flag. @public */
export type SourceParse =
  | { readonly spec: DataSourceSpec; readonly warnings: readonly string[] }
  | { readonly issues: readonly ValidationIssue[] };

/**
 * How one datasource plug-in meets the command line: its flags (names, help, bounds), which of them select it, the
 * stages whose data it holds, and its parser. The source registry in infra lists them; the interface layer builds the
 * option tables and picks the run's source from that list, never from the names of the kinds.
 * @public
 */
export interface SourceChoice {
  readonly kind: string;
  /** one line for `--help` (its flags' heading) and for the error that lists the registered kinds */
  readonly help: string;
  /** every flag it reads, by kebab-case name (flags shared by several plug-ins are the same object) */
  readonly flags: Readonly<Record<string, SourceFlag>>;
  /** the flags whose presence selects it; none: it is the source of a run that names no source */
  readonly selectedBy: readonly string[];
  /** the stages whose data it holds; absent: every stage */
  readonly stages?: readonly Stage[];
  /** the spec of the run from its flags (camelCase keys, as yargs hands them over), or the issues */
  parse(flags: Readonly<Record<string, unknown>>, run: SourceRun): SourceParse;
}
