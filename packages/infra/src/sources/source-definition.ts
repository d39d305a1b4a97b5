import type { DataSourceSpec, Stage, ValidationIssue } from '@maou/bench-domain';
import type {
  ClockPort,
  DataSourcePort,
  LoggerPort,
  ProgressPort,
  SourceChoice,
  SourceRun,
} from '@maou/bench-use-cases';

/** What every source may report to: logs, time, and progress (sample generation, downloads). @public */
export interface SourceContext {
  readonly logger: LoggerPort;
  readonly clock: ClockPort;
  readonly progress: ProgressPort;
}

/**
 * One kind of datasource, in its own folder, added to the registry by one line in `register-sources.ts`. It carries
 * everything the rest of the program knows about it: its flags (names, help, bounds), which flags select it, its
 * parser, its capabilities (on the spec it parses) and its factory (`open`).
 * @public
 */
export interface SourceDefinition<S extends DataSourceSpec> extends SourceChoice {
  readonly kind: S['kind'];
  parse(
    flags: Readonly<Record<string, unknown>>,
    run: SourceRun,
  ): { readonly spec: S; readonly warnings: readonly string[] } | { readonly issues: readonly ValidationIssue[] };
  open(spec: S, stage: Stage, sampleRatio: number | null, context: SourceContext): Promise<DataSourcePort>;
}
