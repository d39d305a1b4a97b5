import { parentPort, workerData } from 'node:worker_threads';
import { batchBuffers } from '@maou/bench-domain';
import { produceBatches, type ProducerContext } from './batch-producer';
import { MapRowStore } from './map-row-store';
import { loadShardReader } from './shard-reader';
import { applyPolicyTarget } from './policy-target-reader';
import { MaterializeClient } from './materialize-client';
import { SharedShardClient } from './shared-shard-client';
import { threadCounters } from './thread-counters';
import type { FromWorker, ToWorker, WorkerInit } from './worker-protocol';

// Entry of a loader worker thread: runs one task at a time, sends at most `credits` batches ahead of the consumer.
const init = workerData as WorkerInit;
const port = parentPort!;
const read = loadShardReader(init.reader);
const { setup } = init;
const pool: (readonly ArrayBuffer[])[] = [];
const files = new MaterializeClient((m) => port.postMessage(m));
const readPath = (path: string) =>
  files.read(path, async (p) => applyPolicyTarget(p, await read(p, setup.stage), setup.policyTargetMode));
const decode = (i: number) => readPath(setup.shardPaths[i]!);
const shards = new SharedShardClient((m) => port.postMessage(m), decode);
const ctx: ProducerContext = {
  setup,
  readFile: readPath,
  store: new MapRowStore(setup.shardOffsets, init.shareFileShards ? (i) => shards.load(i) : decode, init.shared ?? []),
  takeBuffers: () => (setup.pinMemory ? pool.pop() : undefined),
};

let run: { id: number; credits: number; cancelled: boolean; wake: (() => void) | null } | null = null;
const post = (m: FromWorker, transfer: ArrayBuffer[] = []): void => port.postMessage(m, transfer);

const execute = async (current: NonNullable<typeof run>, msg: Extract<ToWorker, { type: 'run' }>): Promise<void> => {
  try {
    for await (const batch of produceBatches(msg.task, ctx)) {
      while (current.credits === 0 && !current.cancelled) await new Promise<void>((r) => (current.wake = r));
      if (current.cancelled) return;
      current.credits--;
      // The batch's buffers move to the main thread without a copy; they are detached here.
      post({ type: 'batch', runId: current.id, batch }, batchBuffers(batch));
    }
    post({ type: 'end', runId: current.id });
  } catch (e) {
    const error = e instanceof Error ? e : new Error(String(e));
    post({ type: 'error', runId: current.id, message: error.message, stack: error.stack });
  }
};

port.on('message', (msg: ToWorker) => {
  if (msg.type === 'run') {
    run = { id: msg.runId, credits: msg.credits, cancelled: false, wake: null };
    void execute(run, msg);
    return;
  }
  if (msg.type === 'recycle') {
    pool.push(msg.buffers);
    return;
  }
  if (msg.type === 'shard') {
    shards.answer(msg.shard, msg.columns);
    return;
  }
  if (msg.type === 'materialized') {
    files.answer(msg.path, msg.error);
    return;
  }
  if (msg.type === 'stats') {
    post({ type: 'stats', requestId: msg.requestId, stats: threadCounters(ctx.store) });
    return;
  }
  if (!run || run.id !== msg.runId) return;
  if (msg.type === 'credit') run.credits++;
  else run.cancelled = true;
  const wake = run.wake;
  run.wake = null;
  wake?.();
});
