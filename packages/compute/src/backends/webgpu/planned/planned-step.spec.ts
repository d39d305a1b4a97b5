import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import { createTrainer, type TfjsTrainer, type TrainerOptions } from '@maou/bench-engine';
import type { ModelPreset, Stage, TrainingConfig } from '@maou/bench-domain';
import {
  NARROW_RESNET,
  randomBatch,
  TRAINING,
  engineGradients,
  gradientErrors,
  relErr,
  useLavapipe,
} from '@maou/bench-testkit/compute';
import { startWebgpuBackend } from '../webgpu-backend.plugin';
import { planSettings, PlannedWebgpuTrainer } from './planned-trainer';
import { describeStep, type SplitSizes } from './step-description';

const gpu = useLavapipe();
if (!gpu.available) console.warn(`planned WebGPU step specs skipped: ${gpu.reason}`);

const clock = { now: () => performance.now(), wallTime: () => new Date() };
const SEED = 11;
// `pnpm test:gpu-full` (before merging GPU kernel changes) runs resnet at its full widths; `test:all` runs its
// topology at 1/8 of the widths: the same dispatches and kernels, a fraction of the cpu reference's and lavapipe's work.
const FULL_WIDTH = process.env.MAOU_GPU_FULL === '1';

const optionsFor = (preset: ModelPreset, stage: Stage, training: Partial<TrainingConfig> = {}): TrainerOptions => ({
  stage,
  training: { ...TRAINING, preset, detectAnomaly: false, ...training },
  totalSteps: 10,
  seed: SEED,
  networkShape: preset === 'resnet' && !FULL_WIDTH ? NARROW_RESNET : undefined,
});

async function startWebgpu(): Promise<void> {
  const started = await startWebgpuBackend({ backend: 'webgpu', deviceIndex: 0, threads: 'auto' });
  if (!started.ok) throw new Error(started.error);
}

async function plannedTrainer(o: TrainerOptions, split?: Partial<SplitSizes>): Promise<PlannedWebgpuTrainer> {
  await startWebgpu();
  return new PlannedWebgpuTrainer(o, createTrainer(o) as TfjsTrainer, { split });
}

/** Loss, every parameter's gradient and the running statistics of one planned step against the engine on cpu. */
async function expectEngineGradients(
  preset: ModelPreset,
  stage: Stage,
  batchSize: number,
  extra: Partial<TrainingConfig> = {},
  split?: Partial<SplitSizes>,
  seed = 5 + stage,
): Promise<number> {
  const o = optionsFor(preset, stage, extra);
  const batch = randomBatch(stage, batchSize, seed);
  await tf.setBackend('cpu');
  const want = await engineGradients(o, batch);
  const planned = await plannedTrainer(o, split);
  try {
    const { loss } = await planned.step(batch, clock);
    expect(Math.abs(loss - want.loss)).toBeLessThan(1e-4 * Math.abs(want.loss));
    const errors = gradientErrors(want, await planned.read('G'), planned.parameterOffsets());
    // float32 sums over the batch and the board in another order: a few ulp of the largest element
    expect(errors.filter((e) => !(e.err < 2e-3))).toEqual([]);
    const R = await planned.read('R');
    const running = Float32Array.from(want.running.flatMap((r) => [...r]));
    expect(relErr(running, R)).toBeLessThan(1e-4);
    return planned.lastDispatchCount;
  } finally {
    planned.dispose();
  }
}

(gpu.available ? describe : describe.skip)('planned WebGPU training step (lavapipe without a GPU)', () => {
  afterAll(async () => {
    await tf.setBackend('cpu');
  });

  // Stage 1 also runs every split path: filter gradients over K (ranges of 16 output pixels), norm gradient sums over
  // rows (64 a workgroup, 4 chunks at 9×9) and the embedding gradient over positions (100 a thread, 3 chunks); the
  // other stages at the default sizes, where batch 3 splits nothing.
  it.each([
    ['lite', 3, {}, undefined],
    ['lite', 1, {}, { minSplitRows: 16, reduceChunkRows: 64, embeddingChunkPositions: 100 }],
    ['lite', 2, { stage2HiddenDim: 16 }, undefined],
  ] as const)(
    '%s Stage %i %j: loss, every gradient and running statistics match the engine on cpu',
    async (preset, stage, extra, split) => {
      const count = await expectEngineGradients(preset, stage, 3, extra, split);
      expect(count).toBe(describeStep(planSettings(optionsFor(preset, stage, extra), split), 3).dispatches.length);
    },
    600_000,
  );

  // Batches of 2–4 rows are badly conditioned here: a 1e-6 relative change of the weights moves the engine's own
  // resnet gradients by up to 13 % (Stage 2, 4 rows; ADR 0015), so each stage uses a batch on which the float32
  // references agree. A float64 reference would remove this choice.
  it.each([3, 1, 2] as const)(
    `resnet${FULL_WIDTH ? '' : ' (1/8 width)'} Stage %i: loss and every gradient match the engine; the step is at most 300 dispatches`,
    async (stage) => {
      const count = await expectEngineGradients('resnet', stage, stage === 3 ? 4 : 2);
      expect(count).toBeLessThanOrEqual(300);
    },
    1_200_000,
  );

  it.each([
    [
      'sgd with momentum and weight decay',
      { optimizer: 'sgd', momentum: 0.9, gradientClip: 0, weightDecay: 0.01, learningRate: 0.05 },
    ],
    // With AdamW's usual eps (1e-8) a first step moves every weight by ±lr whatever its gradient's size, so weights
    // whose gradient is float32 noise (the hand bias, which the batch norms remove) move either way in either
    // implementation. An eps above that noise keeps the update proportional to the gradient where it is noise.
    [
      'adamw with clipping and decoupled weight decay',
      { optimizer: 'adamw', eps: 1e-3, gradientClip: 0.5, weightDecay: 0.01, learningRate: 0.01 },
    ],
  ] as const)(
    "%s: the weights after two updates are the engine optimiser's (lite, Stage 3)",
    async (_, extra) => {
      const o = optionsFor('lite', 3, extra);
      // Batch 3 reuses the pipelines of the first test. On some random batches of 3 rows the gradients of the cpu
      // backend, the tfjs webgpu path and the planned step differ from each other by up to a few per cent (badly
      // conditioned batch norms of a tiny batch, ADR 0015); these batches are not among them.
      const batches = [randomBatch(3, 3, 8), randomBatch(3, 3, 9)];
      await tf.setBackend('cpu');
      const engine = createTrainer(o) as TfjsTrainer;
      const engineLosses: number[] = [];
      const want: (readonly [string, Float32Array])[][] = [];
      for (const b of batches) {
        engineLosses.push((await engine.step(b, clock)).loss);
        want.push(
          await Promise.all(
            engine.network.store.parameters.map(
              async (p) => [p.name, (await p.variable.data()) as Float32Array] as const,
            ),
          ),
        );
      }
      engine.dispose();
      const planned = await plannedTrainer(o);
      try {
        const offsets = planned.parameterOffsets();
        for (let i = 0; i < batches.length; i++) {
          const loss = (await planned.step(batches[i]!, clock)).loss;
          const P = await planned.read('P');
          const errors = want[i]!.map(([name, w]) => ({
            name,
            err: relErr(w, P.subarray(offsets.get(name)!, offsets.get(name)! + w.length)),
          }));
          expect(Math.abs(loss - engineLosses[i]!)).toBeLessThan(1e-4 * Math.abs(engineLosses[i]!));
          expect(errors.filter((e) => !(e.err < 1e-4))).toEqual([]);
        }
      } finally {
        planned.dispose();
      }
    },
    600_000,
  );

  it('reads the loss every N steps through the ring, and validation sees the trained weights', async () => {
    const o = optionsFor('lite', 3);
    await startWebgpu();
    const planned = new PlannedWebgpuTrainer(o, createTrainer(o) as TfjsTrainer, { lossEvery: 3 });
    try {
      const results: number[] = [];
      for (let i = 0; i < 3; i++) results.push((await planned.step(randomBatch(3, 3, 40 + i), clock)).loss);
      expect(results.slice(0, 2).every(Number.isNaN)).toBe(true);
      expect(Number.isFinite(results[2])).toBe(true);
      expect(planned.lossHistory()).toHaveLength(3);
      expect(planned.lossHistory().every(Number.isFinite)).toBe(true);
      const evaluated = await planned.evaluate(randomBatch(3, 3, 50), clock);
      expect(Number.isFinite(evaluated.loss)).toBe(true);
    } finally {
      planned.dispose();
    }
  }, 300_000);
});
