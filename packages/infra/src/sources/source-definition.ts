import type { Stage } from '@maou/bench-domain';
import type { ClockPort, DataSourcePort, LoggerPort, ProgressPort } from '@maou/bench-app';

/** What every source may report to: logs, time, and progress (sample generation, downloads). @public */
export interface SourceContext {
  readonly logger: LoggerPort;
  readonly clock: ClockPort;
  readonly progress: ProgressPort;
}

/** The part of a source spec the registry reads: which kind of source it names. @public */
export interface SourceSpec {
  readonly kind: string;
}

/**
 * One kind of datasource, in its own folder under `sources/`, added to the registry by one line in
 * `register-sources.ts`. Its kind and help text come from here, nowhere else.
 * @public
 */
export interface SourceDefinition<S extends SourceSpec> {
  readonly kind: S['kind'];
  /** one line for `--help` and for the error that lists the registered kinds */
  readonly help: string;
  open(spec: S, stage: Stage, sampleRatio: number | null, context: SourceContext): Promise<DataSourcePort>;
}
