import { err, ok, type Result, type Stage, type StageColumns } from '@maou/bench-domain';
import type {
  ClockPort,
  DataSourcePort,
  LoggerPort,
  ProgressPort,
  ShardRef,
  SourceIoStats,
} from '@maou/bench-use-cases';
import { boundedMap } from '../shared/bounded-map';
import {
  AnswerBudget,
  DEFAULT_REQUEST_TIMEOUT_S,
  DeadlineExceededError,
  RequestDeadlineError,
} from '../shared/deadline';
import { CloudSourceFailure, type CloudSourceError } from '../shared/cloud-source-error';
import { IoStatsRecorder } from '../shared/io-stats-recorder';
import { downloadOnce, objectUrl } from './object-download';
import { cachedCopy, cacheFileProblem } from '../../files/cache-file';
import { cachePathFor, featherObjects, listPrefix } from './object-layout';
import type { ObjectEntry, ObjectStore } from './object-store';
import { RetriesExhaustedError, withCountedRetry, type RetryHooks, type RetryPolicy } from '../shared/retry-policy';
import { seededSample } from '../shared/seeded-sample';
import { describeError } from '../shared/transient-error';
import { checkCompleteArrowFile } from './check-complete-arrow-file';
import { FileError } from '../../files/file-error';
import { bundleDirFor, bundlePlan, bundleShards } from './shard-bundler';
import { shardFromFile } from './shard-from-file';
import { sweepStaleParts } from './stale-parts';
import { startProgress, TransferProgress } from './transfer-progress';
import { basename, join } from 'node:path';
import type { ObjectStoreSettings } from './object-store-settings';

/** Reads one local stage file into columns (the local `.feather` reader). @public */
export type StageFileReader = (path: string, stage: Stage) => Promise<StageColumns>;

/** Settings of a bucket source: the `--input-*` flags as its spec holds them, and the run's. @public */
export interface ObjectSourceOptions extends Omit<ObjectStoreSettings, 'bucket'> {
  readonly sampleRatio: number | null;
  readonly retry: RetryPolicy;
  /** a transfer with no byte (or a listing with no answer) for this long is abandoned and retried (default 30 s) */
  readonly idleTimeoutMs?: number;
}

/** Collaborators of a cloud source. `retryHooks` replaces timers and jitter in tests. @public */
export interface CloudSourceDeps {
  readonly logger: LoggerPort;
  readonly clock: ClockPort;
  readonly readStageFile: StageFileReader;
  readonly retryHooks?: Pick<RetryHooks, 'sleep' | 'random'>;
  /** one task per preparation (bytes of objects, or pages); silent when absent */
  readonly progress?: ProgressPort;
}

/**
 * A bucket store's objects served as local shards: list `{prefix}/{dataName}/`, sample with a seed, download with
 * bounded concurrency into the cache (a second run finds the files there), optionally bundle, then read locally.
 * @public
 */
export class ObjectStoreDataSourceAdapter implements DataSourcePort {
  private readonly stats: IoStatsRecorder;
  private readonly log: LoggerPort;
  private prepared: Promise<Result<readonly ShardRef[], CloudSourceError>> | null = null;

  constructor(
    readonly stage: Stage,
    private readonly store: ObjectStore,
    private readonly options: ObjectSourceOptions,
    private readonly deps: CloudSourceDeps,
  ) {
    this.stats = new IoStatsRecorder(store.kind, deps.clock);
    this.log = deps.logger.child({ component: 'cloud-source', source: store.kind, bucket: store.bucket });
  }

  describe(): string {
    return `${objectUrl(this.store, listPrefix(this.options.prefix, this.options.dataName))} cached in ${this.options.localCacheDir}`;
  }

  /** Lists, downloads and (optionally) bundles once; later calls share the outcome. */
  prepare(): Promise<Result<readonly ShardRef[], CloudSourceError>> {
    this.prepared ??= this.fill();
    return this.prepared;
  }

  async shards(): Promise<readonly ShardRef[]> {
    const r = await this.prepare();
    if (!r.ok) throw new CloudSourceFailure(r.error);
    return r.value;
  }

  read(shard: ShardRef): Promise<StageColumns> {
    return this.deps.readStageFile(shard.path, this.stage);
  }

  ioStats(): SourceIoStats {
    return this.stats.snapshot();
  }

  private async fill(): Promise<Result<readonly ShardRef[], CloudSourceError>> {
    const { prefix, dataName, sampleRatio, seed } = this.options;
    const listed = listPrefix(prefix, dataName);
    const where = objectUrl(this.store, listed);
    let all: ObjectEntry[];
    try {
      const ms = this.idleTimeoutMs;
      const budget = this.answerBudget(`listing ${where}`);
      all = featherObjects(
        await this.retried(`listing ${where}`, () =>
          budget.wait(
            (signal) => this.store.list(listed, signal),
            ms,
            () => new DeadlineExceededError(`listing ${where}`, ms),
          ),
        ),
      );
    } catch (error) {
      return err({ kind: 'transfer', message: this.failureText(error, `listing ${where}`) });
    }
    if (all.length === 0) {
      return err({
        kind: 'empty',
        message: `no .feather objects under ${where} (check --input-bucket-name, --input-prefix, --input-data-name)`,
      });
    }
    const chosen = seededSample(all, sampleRatio, seed);
    const paths = this.cachePaths(chosen, listed);
    if (!paths.ok) return paths;
    // a file of another origin where a copy or bundle would go is refused before anything is fetched or written
    const foreign = this.foreignFiles(chosen, paths.value);
    if (foreign !== null) return err({ kind: 'cache', message: foreign });
    // a run killed mid-download or mid-bundle leaves its temporary beside the file it was writing
    const now = this.deps.clock.wallTime().getTime();
    const { localCacheDir } = this.options;
    let swept = 0;
    for (const dir of [join(localCacheDir, dataName), bundleDirFor(localCacheDir, dataName)])
      swept += await sweepStaleParts(dir, now);
    if (swept > 0) this.log.info({ swept }, 'removed partial downloads or bundles left by an earlier run');
    this.log.info({ prefix: listed, listed: all.length, sampled: chosen.length, sampleRatio, seed }, 'objects listed');
    const progress = new TransferProgress(
      startProgress(this.deps.progress, {
        label: `download ${where}`,
        total: chosen.reduce((n, o) => n + o.size, 0),
        unit: 'bytes',
      }),
    );
    const files = await this.downloadAll(chosen, paths.value, progress);
    progress.finish(files.ok ? 'done' : 'failed');
    if (!files.ok) return files;
    return this.toShards(files.value);
  }

  /** Where each object lands in the cache, or the error naming one whose key cannot be mapped there. */
  private cachePaths(objects: readonly ObjectEntry[], listed: string): Result<string[], CloudSourceError> {
    const paths: string[] = [];
    for (const o of objects) {
      const p = cachePathFor(this.options.localCacheDir, this.options.dataName, listed, o.key);
      if (p === null)
        return err({
          kind: 'cache',
          message: `${objectUrl(this.store, o.key)}: object key cannot be mapped to a cache file`,
        });
      paths.push(p);
    }
    return ok(paths);
  }

  /** The first file at a copy's or a bundle's name that this product did not write, said with the flag, or null. */
  private foreignFiles(objects: readonly ObjectEntry[], paths: readonly string[]): string | null {
    const flag = `--input-local-cache-dir ${this.options.localCacheDir}`;
    for (const [i, path] of paths.entries()) {
      const problem = cacheFileProblem(path);
      if (problem !== null) return `${problem} (it is where ${flag} keeps ${objectUrl(this.store, objects[i].key)})`;
    }
    if (!this.options.enableBundling) return null;
    const shards = objects.map((o, i) => ({ id: basename(paths[i]), bytes: o.size }));
    for (const { bundle } of bundlePlan(
      shards,
      this.options.bundleSizeGb,
      this.options.localCacheDir,
      this.options.dataName,
    )) {
      const problem = bundle && cacheFileProblem(bundle.path);
      if (problem) return `${problem} (it is where ${flag} keeps a bundle of --input-enable-bundling)`;
    }
    return null;
  }

  private async downloadAll(
    objects: readonly ObjectEntry[],
    paths: readonly string[],
    progress: TransferProgress,
  ): Promise<Result<string[], CloudSourceError>> {
    try {
      await boundedMap(objects, this.options.maxWorkers, (o, i) => this.fetchOne(o, paths[i], progress));
    } catch (error) {
      return err({
        kind: 'transfer',
        message: this.failureText(error, `downloading into ${this.options.localCacheDir}`),
      });
    }
    return ok([...paths]);
  }

  private async fetchOne(entry: ObjectEntry, dest: string, progress: TransferProgress): Promise<void> {
    const url = objectUrl(this.store, entry.key);
    const cached = await cachedCopy(dest, entry.size);
    if (cached === 'intact') {
      this.stats.cacheHit();
      progress.cached(entry.size);
      return;
    }
    if (cached === 'damaged')
      this.log.warn(
        { path: dest },
        `the cached copy ${dest} of ${url} differs from what was downloaded (its SHA-256); fetching it again`,
      );
    const budget = this.answerBudget(url);
    const once = async (): Promise<void> => {
      const attempt = progress.attempt();
      try {
        await downloadOnce(
          this.store,
          entry,
          dest,
          this.stats,
          { idleMs: this.idleTimeoutMs, budget },
          (n) => attempt.add(n),
          checkCompleteArrowFile,
        );
      } catch (error) {
        attempt.rollback();
        throw error;
      }
    };
    try {
      await this.retried(url, once);
    } catch (error) {
      // Name the object in errors that did not pass through the retry wrapper (403, 404, disk full).
      if (error instanceof RetriesExhaustedError || error instanceof RequestDeadlineError) throw error;
      throw new Error(`${url}: ${error instanceof FileError ? error.message : describeError(error)}`);
    }
  }

  private async toShards(paths: readonly string[]): Promise<Result<readonly ShardRef[], CloudSourceError>> {
    const files = await Promise.all(paths.map((p) => shardFromFile(p, this.stage)));
    const shards = this.options.enableBundling
      ? await bundleShards(files, this.options.bundleSizeGb, this.options.localCacheDir, this.options.dataName, () =>
          this.stats.cacheHit(),
        )
      : files;
    this.log.info({ shards: shards.length, io: this.stats.snapshot() }, 'cloud data ready');
    return ok(shards);
  }

  /** One request's wait for an answer, all its tries together (`--input-request-timeout`). */
  private answerBudget(what: string): AnswerBudget {
    const endpoint = this.options.endpoint ?? `the default ${this.store.kind.toUpperCase()} endpoint`;
    return new AnswerBudget(what, endpoint, this.options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_S * 1000);
  }

  private get idleTimeoutMs(): number {
    return this.options.idleTimeoutMs ?? 30_000;
  }

  private retried<T>(what: string, op: () => Promise<T>): Promise<T> {
    const seen = { stats: this.stats, log: this.log };
    return withCountedRetry(what, op, this.options.retry, (e) => this.store.isTransient(e), seen, this.deps.retryHooks);
  }

  private failureText(error: unknown, context: string): string {
    return error instanceof Error && (error instanceof RetriesExhaustedError || error.message.includes('://'))
      ? error.message
      : `${context}: ${describeError(error)}`;
  }
}
