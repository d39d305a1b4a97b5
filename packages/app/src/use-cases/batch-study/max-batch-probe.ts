import * as tf from '@tensorflow/tfjs-core';
import {
  FIND_MAX_BATCH_CAP,
  nextBatchToTry,
  summarizeMaxBatch,
  type BatchTry,
  type BenchmarkConfig,
  type HostBatch,
  type MaxBatchResult,
} from '@maou/bench-domain';
import { heapSafeMicroBatch } from '@maou/bench-engine';
import type { NetworkChoice, TrainerFactory, BackendInfo } from '@maou/bench-engine/contracts';
import type { TrainingSession } from '../benchmark-training/benchmark-training.use-case';
import { StepFailure } from '../step-failure';
import { tileBatch } from './tile-batch';
import { UNTIMED_CLOCK } from './untimed-clock';

/** The search never tries more rows than this (host memory for the batch itself grows with it). @public */
export const MAX_BATCH_CAP: number = FIND_MAX_BATCH_CAP.default;
/** Steps per try: the first allocates the optimiser state, the second runs with all of it in place. */
const TRY_STEPS = 2;

const replicasOf = (backend: BackendInfo): number => Math.max(1, backend.replicas ?? 1);

/** What "fits" means on a backend; null where there is no memory limit to search against. @public */
export const fitDefinition = (backend: BackendInfo, network: NetworkChoice): string | null => {
  if (backend.heapLimitBytes !== undefined) {
    const planned = heapSafeMicroBatch(network, backend.heapLimitBytes);
    return (
      `a training step whose share of the batch on each of the ${replicasOf(backend)} replica(s) runs forward and backward as one piece, ` +
      "without micro-batching, inside that replica's 4 GiB wasm heap. Any batch still runs: a benchmark run cuts each replica's share " +
      `into micro-batches of at most ${planned} rows (a planning margin below this limit) and sums their gradients, batch norm then ` +
      'normalising each micro-batch'
    );
  }
  if (backend.placement === 'device')
    return 'a training step of the whole batch that completes on the GPU without an allocation failure';
  return null;
};

/** Whether the backend still computes after a failed try (an aborted wasm instance does not). */
const backendAlive = async (): Promise<boolean> => {
  try {
    const t = tf.add(tf.scalar(1), 1);
    const [v] = await t.data();
    t.dispose();
    return v === 2;
  } catch {
    return false;
  }
};

/**
 * The largest batch that fits (see `fitDefinition`): doubling from the configured batch size until a try fails,
 * then bisecting. Each try is a fresh trainer (fresh replicas, and so fresh heaps, on wasm) that runs two steps on
 * a batch of that many rows tiled from `sample`.
 * @internal
 */
export const searchMaxBatch = async (
  createTrainer: TrainerFactory,
  session: TrainingSession,
  config: BenchmarkConfig,
  sample: HostBatch,
  onTry?: (batch: number) => void,
  cap = MAX_BATCH_CAP,
): Promise<MaxBatchResult> => {
  const { backend } = session;
  const definition = fitDefinition(backend, config.training);
  if (definition === null) {
    throw new StepFailure({
      kind: 'backend-unavailable',
      message: `--find-max-batch needs a backend with a memory limit to search against (a bounded heap or GPU memory: benchmark-training --help lists them under --find-max-batch); this run uses ${backend.name}`,
    });
  }
  const tries: BatchTry[] = [];
  for (
    let batch = nextBatchToTry(tries, config.loader.batchSize, cap);
    batch !== null;
    batch = nextBatchToTry(tries, config.loader.batchSize, cap)
  ) {
    onTry?.(batch);
    tries.push(await tryBatch(createTrainer, session, config, tileBatch(sample, batch)));
    if (!tries[tries.length - 1]!.fits && !(await backendAlive())) {
      throw new StepFailure({
        kind: 'training-failed',
        message: `--find-max-batch: the ${backend.name} backend stopped working after batch ${batch} failed (${tries[tries.length - 1]!.reason}); run the search with --threads 2 or more, where each try has its own replica heaps`,
      });
    }
  }
  return summarizeMaxBatch(tries, backend.heapLimitBytes ?? null, definition);
};

const tryBatch = async (
  createTrainer: TrainerFactory,
  session: TrainingSession,
  config: BenchmarkConfig,
  batch: HostBatch,
): Promise<BatchTry> => {
  const rowsPerReplica = Math.ceil(batch.size / replicasOf(session.backend));
  const trainer = createTrainer({
    stage: config.stage,
    training: config.training,
    totalSteps: TRY_STEPS,
    seed: config.loader.seed,
    backend: session.backend,
    microBatchSize: rowsPerReplica,
  });
  let memory: number | null = null;
  try {
    await trainer.ready?.();
    for (let i = 0; i < TRY_STEPS; i++) {
      const r = await trainer.step(batch, UNTIMED_CLOCK);
      memory = Math.max(memory ?? 0, r.memoryBytes ?? 0) || null;
    }
    return { batch_size: batch.size, fits: true, memory_bytes: memory, reason: null };
  } catch (e) {
    return {
      batch_size: batch.size,
      fits: false,
      memory_bytes: memory,
      reason: e instanceof Error ? e.message : String(e),
    };
  } finally {
    trainer.dispose();
  }
};
