import { createHash } from 'node:crypto';
import { mkdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { err, ok, type Result, type Stage, type StageColumns } from '@maou/bench-domain';
import type { DataSourcePort, LoggerPort, ProgressTask, ShardRef, SourceIoStats } from '@maou/bench-use-cases';
import { encodeStageFeather } from '../../arrow/feather-writer';
import { cachedCopy, cacheFileProblem, removeCachedFile, writeCachedFile } from '../../files/cache-file';
import { Sha256 } from '../../files/sha256';
import { rowsToStageColumns } from './bigquery-rows';
import type { BigQueryShardPlan, BigQueryTableReader } from './bigquery-table-reader';
import { CloudSourceFailure, type CloudSourceError } from '../shared/cloud-source-error';
import { readIpcFileLayout } from '../../arrow/ipc-layout';
import { IoStatsRecorder } from '../shared/io-stats-recorder';
import type { CloudSourceDeps } from '../object-store/object-store-data-source.adapter';
import { RetriesExhaustedError, withCountedRetry, type RetryPolicy } from '../shared/retry-policy';
import { seededSample } from '../shared/seeded-sample';
import { describeError } from '../shared/transient-error';
import { RequestDeadlineError, type AnswerBudget } from '../shared/deadline';
import { startProgress } from '../object-store/transfer-progress';

/** Settings of a BigQuery source, from the `--input-*` flags. @public */
export interface BigQuerySourceOptions {
  /** pages (shards) are cached here; reused by a later run with the same table and batch size */
  readonly cacheDir: string;
  readonly maxCachedBytes: number;
  readonly sampleRatio: number | null;
  readonly seed: number;
  readonly retry: RetryPolicy;
}

const safe = (s: string): string => s.replace(/[^A-Za-z0-9_=-]/g, '_');

/**
 * BigQuery rows served as local Arrow shards. Shards are pages of `batchSize` rows (tabledata.list) or, with a
 * partitioning/clustering key, one shard per key value. Pages are cached as `.feather` files; at most
 * `maxCachedBytes` stay on disk (least recently read evicted first), and `read` refetches an evicted page.
 * @public
 */
export class BigQueryDataSourceAdapter implements DataSourcePort {
  private readonly stats: IoStatsRecorder;
  private readonly log: LoggerPort;
  private readonly plans = new Map<string, BigQueryShardPlan>();
  /** cached page files in least-recently-used order, with their sizes */
  private readonly lru = new Map<string, number>();
  private prepared: Promise<Result<readonly ShardRef[], CloudSourceError>> | null = null;
  private prefix = '';

  constructor(
    readonly stage: Stage,
    private readonly reader: BigQueryTableReader,
    private readonly options: BigQuerySourceOptions,
    private readonly deps: CloudSourceDeps,
  ) {
    this.stats = new IoStatsRecorder('bigquery', deps.clock);
    this.log = deps.logger.child({ component: 'cloud-source', source: 'bigquery' });
  }

  describe(): string {
    return `${this.reader.where()} cached in ${this.options.cacheDir} (≤ ${this.options.maxCachedBytes} bytes)`;
  }

  prepare(): Promise<Result<readonly ShardRef[], CloudSourceError>> {
    this.prepared ??= this.fill().catch((error: unknown) =>
      err({ kind: 'transfer' as const, message: this.failureText(error) }),
    );
    return this.prepared;
  }

  async shards(): Promise<readonly ShardRef[]> {
    const r = await this.prepare();
    if (!r.ok) throw new CloudSourceFailure(r.error);
    return r.value;
  }

  async read(shard: ShardRef): Promise<StageColumns> {
    const plan = this.plans.get(shard.id);
    if (plan === undefined) throw new Error(`${shard.id}: not a shard of ${this.reader.where()}`);
    await this.ensureLocal(plan, shard.path, true);
    return this.deps.readStageFile(shard.path, this.stage);
  }

  async materialize(shard: ShardRef): Promise<void> {
    const plan = this.plans.get(shard.id);
    if (plan === undefined) throw new Error(`${shard.id}: not a shard of ${this.reader.where()}`);
    await this.ensureLocal(plan, shard.path, true);
  }

  ioStats(): SourceIoStats {
    return this.stats.snapshot();
  }

  private async fill(): Promise<Result<readonly ShardRef[], CloudSourceError>> {
    const project = await this.retried('planning', (budget) => this.reader.project(budget));
    const all = await this.retried('planning', (budget) => this.reader.plan(budget));
    if (all.length === 0)
      return err({
        kind: 'empty',
        message: `${this.reader.where()} has no rows (check --input-dataset-id, --input-table-name and the key flags)`,
      });
    const chosen = seededSample(all, this.options.sampleRatio, this.options.seed);
    this.prefix = safe(`${project}_${this.reader.where().split(' ').pop() ?? ''}`);
    // a file of another origin where a page would go is refused before anything is fetched or written
    for (const plan of chosen) {
      const problem = cacheFileProblem(this.pathOf(plan));
      if (problem !== null)
        return err({
          kind: 'cache',
          message: `${problem} (it is where --input-local-cache-dir ${this.options.cacheDir} keeps a page)`,
        });
    }
    await mkdir(this.options.cacheDir, { recursive: true });
    // Page sizes are unknown until written, so progress counts pages.
    const task = startProgress(this.deps.progress, {
      label: `download ${this.reader.where()}`,
      total: chosen.length,
      unit: 'pages',
    });
    const { shards, budgetLeft } = await this.prefetch(chosen, task).catch((error: unknown) => {
      task.finish('failed');
      throw error;
    });
    task.finish('done');
    if (!budgetLeft) {
      // Pages beyond the budget are fetched again when read (loader workers ask for them through materialize()).
      this.log.warn(
        { maxCachedBytes: this.options.maxCachedBytes, shards: shards.length },
        'the table exceeds --input-max-cached-bytes: pages beyond it are fetched again each time they are read',
      );
    }
    this.log.info(
      { shards: shards.length, planned: all.length, cachedBytes: this.totalCached(), io: this.stats.snapshot() },
      'bigquery data ready',
    );
    return ok(shards);
  }

  private async prefetch(
    chosen: readonly BigQueryShardPlan[],
    task: ProgressTask,
  ): Promise<{ shards: ShardRef[]; budgetLeft: boolean }> {
    const shards: ShardRef[] = [];
    let budgetLeft = true;
    for (const plan of chosen) {
      this.plans.set(plan.id, plan);
      const path = this.pathOf(plan);
      // Prefetch in order while the budget lasts; later pages are fetched when first read.
      const bytes = budgetLeft ? await this.ensureLocal(plan, path, false) : await this.cachedSize(plan, path);
      // Stop before a page of the same size would overrun the budget.
      if (this.totalCached() + bytes > this.options.maxCachedBytes) budgetLeft = false;
      shards.push({ id: plan.id, path, rows: plan.rows, bytes });
      task.advance();
    }
    return { shards, budgetLeft };
  }

  /** Key values may hold any character: the name keeps a readable part plus a hash of the exact id. */
  private pathOf(plan: BigQueryShardPlan): string {
    const tag = plan.kind === 'group' ? `_${createHash('sha256').update(plan.id).digest('hex').slice(0, 8)}` : '';
    return join(this.options.cacheDir, `${this.prefix}_${safe(plan.id)}${tag}.feather`);
  }

  /** Size of a complete cached copy (its bytes as recorded, the right row count), or 0; counts it as a cache hit. */
  private async cachedSize(plan: BigQueryShardPlan, path: string): Promise<number> {
    if (
      (await cachedCopy(path)) !== 'intact' ||
      (await readIpcFileLayout(path).then(
        (l) => l.rows,
        () => null,
      )) !== plan.rows
    )
      return 0;
    const { size } = await stat(path);
    this.stats.cacheHit();
    this.touch(path, size);
    return size;
  }

  private async ensureLocal(plan: BigQueryShardPlan, path: string, evict: boolean): Promise<number> {
    if (this.lru.has(path)) {
      this.touch(path, this.lru.get(path) ?? 0);
      return this.lru.get(path) ?? 0;
    }
    const hit = await this.cachedSize(plan, path);
    const size = hit > 0 ? hit : await this.download(plan, path);
    if (evict) await this.evictExcept(path);
    return size;
  }

  private async download(plan: BigQueryShardPlan, path: string): Promise<number> {
    const what = `${this.reader.where()}, shard ${plan.id}`;
    const started = this.stats.startTransfer();
    const rows = await this.retried(what, (budget) => this.reader.fetch(plan, budget));
    this.stats.firstByte();
    if (rows.length !== plan.rows) throw new Error(`${what}: expected ${plan.rows} rows, received ${rows.length}`);
    const firstRow = plan.kind === 'range' ? plan.start : 0;
    const columns = rowsToStageColumns(rows, this.stage, what, firstRow);
    if (!columns.ok) throw new CloudSourceFailure(columns.error);
    const ids = BigUint64Array.from({ length: rows.length }, (_, i) => BigInt(firstRow + i));
    const bytes = encodeStageFeather(columns.value, ids, { compression: 'lz4' });
    await writeCachedFile(path, async (temp) => {
      await writeFile(temp, bytes, { flag: 'wx' });
      return Sha256.of(bytes);
    });
    const size = bytes.length;
    this.stats.finishTransfer(started, size);
    this.touch(path, size);
    return size;
  }

  private touch(path: string, size: number): void {
    this.lru.delete(path);
    this.lru.set(path, size);
  }

  private totalCached(): number {
    let n = 0;
    for (const s of this.lru.values()) n += s;
    return n;
  }

  private async evictExcept(keep: string): Promise<void> {
    for (const [path] of this.lru) {
      if (this.totalCached() <= this.options.maxCachedBytes) return;
      if (path === keep) continue;
      this.lru.delete(path);
      await removeCachedFile(path);
    }
  }

  /** `op`'s tries share one budget of waiting for answers (`--input-request-timeout`). */
  private retried<T>(what: string, op: (budget: AnswerBudget) => Promise<T>): Promise<T> {
    const label = `${what.startsWith('BigQuery') ? '' : `${this.reader.where()}: `}${what}`;
    const budget = this.reader.budget(label);
    const tries = () => op(budget);
    return withCountedRetry(
      label,
      tries,
      this.options.retry,
      (e) => this.reader.isTransient(e),
      { stats: this.stats, log: this.log },
      this.deps.retryHooks,
    );
  }

  private failureText(error: unknown): string {
    if (
      error instanceof CloudSourceFailure ||
      error instanceof RetriesExhaustedError ||
      error instanceof RequestDeadlineError
    )
      return error.message;
    return `${this.reader.where()}: ${describeError(error)}`;
  }
}
