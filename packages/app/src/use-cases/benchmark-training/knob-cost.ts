import {
  costedKnobs,
  summarizeKnobCost,
  withoutCostedKnobs,
  type BenchmarkConfig,
  type HostBatch,
  type KnobCostReport,
  type KnobSideSteps,
  type TrainingConfig,
} from '@maou/bench-domain';
import { profileStep } from '@maou/bench-engine';
import type { BackendInfo, MonotonicClock, TrainerFactory } from '@maou/bench-engine/contracts';
import { planMicroBatches } from '../micro-batch-plan';

/**
 * Timed steps per side, after one warm-up step; then one profiled step for the peak. Three, so the median is one step
 * and a single pause (a GC, the VM stalling) cannot set it: with two it was their mean.
 */
const TIMED_STEPS = 3;

const METHOD =
  `each side on a fresh trainer of this backend (the knobs on, then off), on one batch of this run: 1 warm-up step, ` +
  `${TIMED_STEPS} timed steps (medians), then 1 profiled step for the peak of live tensor bytes (tfjs's count, ` +
  'one replica); every step updates the weights (no accumulation)';

/** What a side needs to train: the run's trainer factory and backend, and the training settings of that side. */
interface SideInput {
  readonly setting: string;
  readonly training: TrainingConfig;
}

/**
 * `--gradient-checkpointing` / `--freeze-backbone` / `--trainable-layers`: steps with the knobs and without them,
 * each side on its own fresh trainer (one alive at a time, so the run's memory plan holds). Null when no knob is on.
 * @internal
 */
export const measureKnobCost = async (input: {
  readonly config: BenchmarkConfig;
  readonly createTrainer: TrainerFactory;
  readonly backend: BackendInfo;
  readonly batch: HostBatch;
  readonly clock: MonotonicClock;
  readonly totalSteps: number;
}): Promise<KnobCostReport | null> => {
  const knobs = costedKnobs(input.config.training);
  if (!knobs.length) return null;
  const base: TrainingConfig = { ...input.config.training, gradientAccumulationSteps: 1, adaptiveBatch: null };
  const on = await measureSide(input, { setting: knobs.join(' '), training: base });
  const off = await measureSide(input, { setting: 'none', training: withoutCostedKnobs(base) });
  return summarizeKnobCost(knobs, METHOD, on, off);
};

const measureSide = async (input: Parameters<typeof measureKnobCost>[0], side: SideInput): Promise<KnobSideSteps> => {
  const { config, batch, clock } = input;
  const micro = planMicroBatches(side.training, config.loader.batchSize, input.backend);
  const trainer = input.createTrainer({
    stage: config.stage,
    training: side.training,
    totalSteps: input.totalSteps,
    seed: config.loader.seed,
    backend: input.backend,
    microBatchSize: micro.microBatchSize,
  });
  try {
    await trainer.ready?.();
    await trainer.step(batch, clock);
    const stepsMs: number[] = [];
    const backwardMs: number[] = [];
    for (let i = 0; i < TIMED_STEPS; i++) {
      const t0 = clock.now();
      const r = await trainer.step(batch, clock);
      stepsMs.push(clock.now() - t0);
      backwardMs.push(r.phasesMs.backward);
    }
    const profiled = trainer.profiledStep
      ? await trainer.profiledStep(batch, clock, -1)
      : await profileStep(-1, clock, (c) => trainer.step(batch, c));
    return {
      setting: side.setting,
      trainableParameters: trainer.trainableParameterCount ?? trainer.parameterCount,
      stepsMs,
      backwardMs,
      peakTensorBytes: profiled.peakBytes ?? null,
    };
  } finally {
    trainer.dispose();
  }
};
