import type { HostBatch, Stage, TrainingConfig } from '@maou/bench-domain';
import type { TrainerFactory, BackendInfo } from '@maou/bench-engine/contracts';
import type { ClockPort } from '../../ports/clock.port';

/** Warm-up steps before the model's rate is timed (kernel set-up and first allocations). */
const WARMUP_STEPS = 2;

/**
 * The model's own consumption rate at one batch size: training steps on one real batch held in memory, so no loading
 * is involved; samples/s over `steps` timed steps after a short warm-up.
 * @public
 */
export const measureConsumption = async (
  createTrainer: TrainerFactory,
  o: {
    backend?: BackendInfo;
    microBatchSize?: number;
    stage: Stage;
    training: TrainingConfig;
    seed: number;
    steps: number;
    batch: HostBatch;
    clock: ClockPort;
  },
): Promise<number> => {
  const trainer = createTrainer({
    stage: o.stage,
    training: o.training,
    totalSteps: WARMUP_STEPS + o.steps,
    seed: o.seed,
    backend: o.backend,
    microBatchSize: o.microBatchSize,
  });
  try {
    await trainer.ready?.();
    for (let i = 0; i < WARMUP_STEPS; i++) await trainer.step(o.batch, o.clock);
    const t0 = o.clock.now();
    for (let i = 0; i < o.steps; i++) await trainer.step(o.batch, o.clock);
    return (1000 * o.batch.size * o.steps) / Math.max(1e-9, o.clock.now() - t0);
  } finally {
    trainer.dispose();
  }
};
