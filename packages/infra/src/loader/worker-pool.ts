import type { Worker } from 'node:worker_threads';
import { batchBuffers, type HostBatch } from '@maou/bench-domain';
import type { LoaderTask } from './loader-task';
import { SharedShardBroker } from './shared-shard-broker';
import { spawnLoaderWorker } from './worker-entry';
import type { FromWorker, ThreadCounters, ToWorker, WorkerInit } from './worker-protocol';

interface Lane {
  queue: HostBatch[];
  done: boolean;
}

/**
 * A fixed set of loader workers. Each pass hands every worker its own task; batches are taken round-robin across
 * workers, so the order depends on the seed only, never on which worker is faster. Any worker failure rejects the
 * pending `next()` with the worker's message; a worker that dies mid-pass can never leave the consumer waiting.
 * @internal
 */
export class WorkerPool {
  private readonly workers: Worker[];
  private readonly origin = new WeakMap<HostBatch, number>();
  private readonly statsWaiting = new Map<number, (stats: ThreadCounters) => void>();
  private statsRequests = 0;
  private lanes: Lane[] = [];
  private runId = 0;
  private failure: Error | null = null;
  private wake: (() => void) | null = null;
  private closed = false;
  private readonly shards = new SharedShardBroker((k, shard, columns) => {
    if (!this.closed) this.send(this.workers[k]!, { type: 'shard', shard, columns });
  });

  /** `materialize`: brings back a shard file a source evicted from its bounded cache (absent: files never go away). */
  constructor(
    count: number,
    init: WorkerInit,
    private readonly materialize?: (path: string) => Promise<void>,
  ) {
    this.workers = Array.from({ length: count }, (_, k) => this.start(k, init));
  }

  /** Batches received from workers and not yet taken by the consumer. */
  get buffered(): number {
    return this.lanes.reduce((n, l) => n + l.queue.length, 0);
  }

  async *run(tasks: readonly LoaderTask[], prefetch: number): AsyncGenerator<HostBatch> {
    if (this.failure) throw this.failure;
    const id = ++this.runId;
    this.lanes = this.workers.map(() => ({ queue: [], done: false }));
    this.workers.forEach((w, k) => this.send(w, { type: 'run', runId: id, task: tasks[k]!, credits: prefetch }));
    try {
      for (let k = 0; ; k = (k + 1) % this.lanes.length) {
        if (this.lanes.every((l) => l.done && l.queue.length === 0)) return;
        const lane = this.lanes[k]!;
        while (lane.queue.length === 0 && !lane.done) await this.waitForMessage();
        const batch = lane.queue.shift();
        if (!batch) continue;
        this.origin.set(batch, k);
        this.send(this.workers[k]!, { type: 'credit', runId: id });
        yield batch;
      }
    } finally {
      // An abandoned pass stops its producers so that the next pass starts clean.
      if (!this.closed) this.workers.forEach((w) => this.send(w, { type: 'cancel', runId: id }));
    }
  }

  /** Sends a consumed batch's buffers back to the worker that made it, to be written again (pinned pool). */
  recycle(batch: HostBatch): void {
    const k = this.origin.get(batch);
    if (k === undefined || this.closed) return;
    const buffers = batchBuffers(batch);
    this.send(this.workers[k]!, { type: 'recycle', buffers }, buffers);
  }

  /** Every worker's counters, in worker order. */
  stats(): Promise<ThreadCounters[]> {
    return Promise.all(
      this.workers.map(
        (w) =>
          new Promise<ThreadCounters>((resolve, reject) => {
            if (this.closed || this.failure) return reject(this.failure ?? new Error('data loader closed'));
            const requestId = ++this.statsRequests;
            this.statsWaiting.set(requestId, resolve);
            this.send(w, { type: 'stats', requestId });
          }),
      ),
    );
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.fail(new Error('data loader closed'));
    await Promise.all(this.workers.map((w) => w.terminate()));
  }

  private start(k: number, init: WorkerInit): Worker {
    const w = spawnLoaderWorker(init);
    w.on('message', (m: FromWorker) => this.onMessage(k, m));
    w.on('error', (e) => this.fail(new Error(`loader worker ${k} failed: ${e.message}`, { cause: e })));
    w.on('exit', (code) => {
      if (!this.closed) this.fail(new Error(`loader worker ${k} exited with code ${code}`));
    });
    return w;
  }

  /** Map-style shards decoded so far in shared memory (`file` mode with workers). */
  get sharedShards(): number {
    return this.shards.decodedShards;
  }

  private onMessage(k: number, m: FromWorker): void {
    if (m.type === 'shard-need') return this.shards.need(k, m.shard);
    if (m.type === 'shard-loaded') return this.shards.loaded(m.shard, m.columns);
    if (m.type === 'shard-failed') return this.shards.failed(m.shard);
    if (m.type === 'materialize') return this.bringBack(k, m.path);
    if (m.type === 'stats') {
      this.statsWaiting.get(m.requestId)?.(m.stats);
      this.statsWaiting.delete(m.requestId);
      return;
    }
    if (m.runId !== this.runId) return;
    const lane = this.lanes[k]!;
    if (m.type === 'batch') lane.queue.push(m.batch);
    else if (m.type === 'end') lane.done = true;
    else this.fail(Object.assign(new Error(`loader worker ${k}: ${m.message}`), { workerStack: m.stack }));
    this.notify();
  }

  private bringBack(k: number, path: string): void {
    const answer = (error: string | null) => {
      if (!this.closed) this.send(this.workers[k]!, { type: 'materialized', path, error });
    };
    if (!this.materialize) return answer('the file is missing and its source cannot fetch it again');
    this.materialize(path).then(
      () => answer(null),
      (e: unknown) => answer(e instanceof Error ? e.message : String(e)),
    );
  }

  private fail(error: Error): void {
    this.failure ??= error;
    this.notify();
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }

  private waitForMessage(): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise<void>((resolve, reject) => {
      this.wake = () => (this.failure ? reject(this.failure) : resolve());
    });
  }

  private send(w: Worker, m: ToWorker, transfer: ArrayBuffer[] = []): void {
    w.postMessage(m, transfer);
  }
}
