import type { DataSourceSpec, Result, Stage } from '@maou/bench-domain';
import type { ClockPort, DataSourcePort, LoggerPort, ProgressPort, ShardRef } from '@maou/bench-use-cases';
import type { CloudSourceDeps, StageFileReader } from '../object-store/object-store-data-source.adapter';
import { readStageFile } from '../local/read-stage-file';
import type { SourceDefinition } from '../source-definition';
import { CloudSourceFailure, type CloudSourceError } from './cloud-source-error';
import type { RetryHooks, RetryPolicy } from './retry-policy';

/** A cloud source's spec (each cloud plug-in extends it with its settings). @public */
export type CloudDataSourceSpec = DataSourceSpec & { readonly seed: number };

/** A cloud source; `prepare` lists and downloads up front and reports failures as values. @public */
export interface CloudDataSource extends DataSourcePort {
  prepare(): Promise<Result<readonly ShardRef[], CloudSourceError>>;
}

/**
 * Run-level settings: `--sample-ratio` and overrides that tests and odd deployments need (the seed is the spec's).
 * `client` is the plug-in's own, typed by it (credentials, a region, an offline auth client).
 * @public
 */
export interface CloudSourceOptions<C = unknown> {
  readonly sampleRatio: number | null;
  readonly retry?: RetryPolicy;
  /** a bucket store's transfer with no byte for this long is retried (default 30 s) */
  readonly idleTimeoutMs?: number;
  readonly readStageFile?: StageFileReader;
  readonly retryHooks?: Pick<RetryHooks, 'sleep' | 'random'>;
  readonly client?: C;
}

/** What a cloud source reports to: logs, time, and (optionally) download progress. @public */
export interface CloudSourceContext {
  readonly logger: LoggerPort;
  readonly clock: ClockPort;
  /** one task per source preparation; silent when absent */
  readonly progress?: ProgressPort;
}

/**
 * Builds one kind of cloud source from its spec. Nothing is listed or downloaded yet: call `prepare()` (or
 * `shards()`). Identifier and missing-library problems come back as error values.
 * @public
 */
export type CloudSourceCreator<S extends CloudDataSourceSpec, C = unknown> = (
  spec: S,
  stage: Stage,
  context: CloudSourceContext,
  options: CloudSourceOptions<C>,
) => Promise<Result<CloudDataSource, CloudSourceError>>;

/** The adapters' dependencies: the context plus the file reader and retry hooks the options may replace. @internal */
export const cloudDeps = (context: CloudSourceContext, options: CloudSourceOptions<unknown>): CloudSourceDeps => ({
  ...context,
  readStageFile: options.readStageFile ?? readStageFile,
  retryHooks: options.retryHooks,
});

/**
 * A registry entry for one cloud kind: its flags and parser as given, and an `open` that builds the source and
 * prepares it, so listing and download errors surface before any batch is timed; failures reject with
 * {@link CloudSourceFailure}. The sampling seed is the spec's (the run's `--seed`); `extra` holds the overrides tests
 * need (retry policy, the plug-in's client settings, timeouts).
 * @public
 */
export const cloudSource = <S extends CloudDataSourceSpec, C = unknown>(
  choice: Omit<SourceDefinition<S>, 'open'>,
  create: CloudSourceCreator<S, C>,
  extra: Omit<CloudSourceOptions<C>, 'sampleRatio'> = {},
): SourceDefinition<S> => ({
  kind: choice.kind,
  help: choice.help,
  flags: choice.flags,
  selectedBy: choice.selectedBy,
  ...(choice.stages ? { stages: choice.stages } : {}),
  parse: choice.parse,
  async open(spec, stage, sampleRatio, context) {
    const source = await create(spec, stage, context, { ...extra, sampleRatio });
    if (!source.ok) throw new CloudSourceFailure(source.error);
    const ready = await source.value.prepare();
    if (!ready.ok) throw new CloudSourceFailure(ready.error);
    return source.value;
  },
});
