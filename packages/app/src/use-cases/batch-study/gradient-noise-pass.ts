import {
  estimateGradientNoise,
  type BenchmarkConfig,
  type GradientNoiseMeasurement,
  type GradientNormSample,
} from '@maou/bench-domain';
import type { TrainerFactory } from '@maou/bench-engine/contracts';
import type { DataLoaderFactoryPort } from '../../ports/data-loader.port';
import type { TrainingSession } from '../benchmark-training/benchmark-training.use-case';
import { planMicroBatches } from '../micro-batch-plan';
import { UNTIMED_CLOCK } from './untimed-clock';

/** Pieces each update is cut into at least, so that |G_small|² averages several pieces. */
const MIN_PIECES = 4;

/**
 * Rows per piece for the noise pass: each replica's shard cut into enough micro-batches that the update has at
 * least `MIN_PIECES` pieces, never more rows than the heap allows.
 * @internal
 */
export const noisePieceRows = (config: BenchmarkConfig, session: TrainingSession): number => {
  const replicas = Math.max(1, session.backend.replicas ?? 1);
  const perReplica = Math.ceil(config.loader.batchSize / replicas);
  const piecesPerReplica = Math.ceil(MIN_PIECES / replicas);
  const rows = Math.max(1, Math.floor(perReplica / piecesPerReplica));
  const heapSafe = planMicroBatches(config.training, config.loader.batchSize, session.backend).microBatchSize;
  return heapSafe === undefined ? rows : Math.min(rows, heapSafe);
};

/**
 * Trains `steps` batches of `config` (untimed) with gradient norms reported per micro-batch and per update, and
 * estimates B_simple from them. Its own loader and trainer, so the sweep's timed runs carry no measuring cost.
 * @internal
 */
export const measureGradientNoise = async (
  deps: { loaders: DataLoaderFactoryPort; createTrainer: TrainerFactory },
  session: TrainingSession,
  config: BenchmarkConfig,
  steps: number,
): Promise<GradientNoiseMeasurement | null> => {
  const loader = await deps.loaders.create(session.source, config.loader);
  const trainer = deps.createTrainer({
    stage: config.stage,
    training: config.training,
    totalSteps: loader.batchesPerEpoch.train,
    seed: config.loader.seed,
    backend: session.backend,
    microBatchSize: noisePieceRows(config, session),
    measureGradientNorms: true,
  });
  const samples: GradientNormSample[] = [];
  try {
    await trainer.ready?.();
    for await (const batch of loader.iterate('train', 0)) {
      const r = await trainer.step(batch, UNTIMED_CLOCK);
      if (r.gradientNorms) samples.push(r.gradientNorms);
      if (samples.length >= steps) break;
    }
  } finally {
    trainer.dispose();
    await loader.close();
  }
  return estimateGradientNoise(samples);
};
