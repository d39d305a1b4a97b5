import type { Worker } from 'node:worker_threads';
import { NonFiniteValueError } from '@maou/bench-engine';
import { batchBuffers } from '@maou/bench-domain';
import { spawnWorker } from '@maou/bench-host';
import type { FromReplica, ReplicaFailure, ReplicaInit, ToReplica } from './replica-protocol';

type Ready = Extract<FromReplica, { type: 'ready' }>;
type Answer = Extract<FromReplica, { type: 'stepped' | 'evaluated' }>;

const rebuild = (replica: number, f: ReplicaFailure): Error =>
  f.name === 'NonFiniteValueError' && f.batchIndex !== undefined && f.tensorName !== undefined
    ? new NonFiniteValueError(f.batchIndex, f.tensorName)
    : Object.assign(new Error(`data-parallel replica ${replica}: ${f.message}`), { name: f.name });

/**
 * The replica worker threads of one data-parallel trainer: starts them, runs one request on all of them at a time,
 * and releases the gradient barrier when every replica has reached it. The first failure of any replica (an error,
 * a crash, an exit) fails the pending request and every later one, and stops the other replicas, which would
 * otherwise wait at the barrier for ever.
 * @internal
 */
export class ReplicaPool {
  readonly started: Promise<Ready>;
  private readonly workers: Worker[];
  private pending: {
    answers: (Answer | undefined)[];
    resolve: (a: Answer[]) => void;
    reject: (e: Error) => void;
  } | null = null;
  private atBarrier = 0;
  private failure: Error | null = null;
  private nextId = 0;
  private readonly startRejects: ((e: Error) => void)[] = [];

  constructor(
    init: Omit<ReplicaInit, 'replica'>,
    spawn = (data: ReplicaInit): Worker => spawnWorker(__filename, 'replica-worker', data),
  ) {
    this.workers = [];
    try {
      for (let replica = 0; replica < init.replicas; replica++) this.workers.push(spawn({ ...init, replica }));
    } catch (e) {
      // Replicas already started would keep the process alive: stop them before giving up.
      for (const w of this.workers) void w.terminate();
      throw e;
    }
    const readies = this.workers.map(
      (w, k) =>
        new Promise<Ready>((resolve, reject) => {
          this.startRejects.push(reject);
          w.on('message', (m: FromReplica) => (m.type === 'ready' ? resolve(m) : this.onMessage(k, m)));
          w.on('error', (e) => this.fail(k, { name: e.name, message: e.message }));
          w.on('exit', (code) => this.fail(k, { name: 'Error', message: `exited (code ${code})` }));
        }),
    );
    this.started = Promise.all(readies).then((all) => {
      const sizes = new Set(all.map((r) => r.exchangeFloats));
      if (sizes.size !== 1)
        throw new Error(`data-parallel replicas disagree on the network size: ${[...sizes].join(', ')}`);
      const buffer = new SharedArrayBuffer(all[0]!.exchangeFloats * init.replicas * 4);
      this.broadcast({ type: 'exchange', buffer });
      return all[0]!;
    });
    this.started.catch(() => undefined);
  }

  get size(): number {
    return this.workers.length;
  }

  /** Sends each replica its request (built from the request id) and resolves with every answer, in replica order. */
  async request(make: (replica: number, id: number) => ToReplica): Promise<Answer[]> {
    await this.started;
    if (this.failure) throw this.failure;
    const id = this.nextId++;
    return new Promise<Answer[]>((resolve, reject) => {
      this.pending = { answers: this.workers.map(() => undefined), resolve, reject };
      this.atBarrier = 0;
      this.workers.forEach((w, k) => {
        const m = make(k, id);
        // Shards are copies made for this request: hand their buffers over instead of cloning them.
        w.postMessage(m, 'shard' in m ? batchBuffers(m.shard) : []);
      });
    });
  }

  /** Stops every replica; whatever still waits on this pool (start-up, a request) is rejected. */
  close(): void {
    this.abort(new Error('data-parallel trainer was disposed'));
  }

  private broadcast(m: ToReplica): void {
    for (const w of this.workers) w.postMessage(m);
  }

  private onMessage(k: number, m: FromReplica): void {
    if (m.type === 'reduce-ready') {
      if (++this.atBarrier === this.workers.length) this.broadcast({ type: 'reduce-go' });
    } else if (m.type === 'failed') {
      this.fail(k, m.failure);
    } else if (m.type !== 'ready' && this.pending) {
      const p = this.pending;
      p.answers[k] = m;
      if (p.answers.every((a) => a !== undefined)) {
        this.pending = null;
        p.resolve(p.answers as Answer[]);
      }
    }
  }

  private fail(k: number, f: ReplicaFailure): void {
    if (!this.failure) this.abort(rebuild(k, f));
  }

  private abort(error: Error): void {
    if (this.failure) return;
    this.failure = error;
    for (const reject of this.startRejects) reject(error);
    this.pending?.reject(error);
    this.pending = null;
    for (const w of this.workers) void w.terminate();
  }
}
