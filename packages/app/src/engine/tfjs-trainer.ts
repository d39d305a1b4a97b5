import * as tf from '@tensorflow/tfjs-core';
import { type HostBatch, type Stage } from '@maou/bench-domain';
import { type ClockPort } from '../ports/clock.port';
import { firstNonFinite, NonFiniteValueError } from './anomaly';
import { type DeviceBatch, disposeDeviceBatch, uploadBatch } from './device-batch';
import { type NetworkOutputs, ShogiNetwork } from './network/shogi-network';
import { SeededRandom } from './nn/seeded-random';
import { clipByGlobalNorm } from './optim/clip-gradients';
import { createLrSchedule, type LrSchedule } from './optim/lr-schedule';
import { Optimizer } from './optim/optimizer';
import { createObjective, type StageObjective } from './stage-objective';
import { settle } from './tape/settle';
import { TapeRecorder } from './tape/tape-recorder';
import { type EvalResult, type StepResult, type Trainer, type TrainerFactory, type TrainerOptions } from './trainer';

type Phases = { hostToDevice: number; forward: number; loss: number; backward: number; optimizer: number };

/**
 * The training step on tfjs-core: upload → forward (tape on) → loss → backward (own tape walk) →
 * clip + optimiser + LR schedule every `gradientAccumulationSteps` calls. Each phase ends with an
 * awaited one-element read, so its time covers the device work, not just the dispatch.
 * @public
 */
export class TfjsTrainer implements Trainer {
  readonly stage: Stage;
  readonly parameterCount: number;
  readonly multiplyAddsPerSample: number;
  readonly network: ShogiNetwork;
  private readonly objective: StageObjective;
  private readonly optimizer: Optimizer;
  private readonly schedule: LrSchedule;
  private readonly tape = new TapeRecorder();
  private readonly variables: tf.Variable[];
  private readonly names: string[];
  private accumulated: tf.Tensor[] | null = null;
  private batches = 0;
  private optimizerSteps = 0;

  constructor(private readonly options: TrainerOptions) {
    const t = options.training;
    this.stage = options.stage;
    this.network = new ShogiNetwork({
      preset: t.preset,
      stage: options.stage,
      stage2HiddenDim: t.stage2HiddenDim,
      stage2Dropout: t.stage2HeadDropout,
      rng: new SeededRandom(options.seed),
    });
    const params = this.network.store.parameters;
    this.variables = params.map((p) => p.variable);
    this.names = params.map((p) => p.name);
    this.parameterCount = this.network.parameterCount();
    this.multiplyAddsPerSample = this.network.multiplyAddsPerSample();
    this.objective = createObjective(options.stage, t);
    this.optimizer = new Optimizer(params, { name: t.optimizer, momentum: t.momentum, beta1: t.beta1, beta2: t.beta2, eps: t.eps, weightDecay: t.weightDecay });
    const accumulation = Math.max(1, t.gradientAccumulationSteps);
    this.schedule = createLrSchedule(t.lrScheduler, t.learningRate, Math.ceil(options.totalSteps / accumulation));
  }

  currentLearningRate(): number {
    return this.schedule(this.optimizerSteps);
  }

  async step(batch: HostBatch, clock: ClockPort): Promise<StepResult> {
    const cfg = this.options.training;
    const batchIndex = this.batches++;
    const accumulation = Math.max(1, cfg.gradientAccumulationSteps);
    const micro = Math.min(batch.size, Math.max(1, this.options.microBatchSize ?? batch.size));
    const ph: Phases = { hostToDevice: 0, forward: 0, loss: 0, backward: 0, optimizer: 0 };
    let loss = 0;
    for (let start = 0; start < batch.size; start += micro) {
      const end = Math.min(batch.size, start + micro);
      // Each piece's mean loss is weighted by its share of the batch, and by 1/accumulation as maou does.
      loss += await this.accumulateGradients(batch, start, end, ((end - start) / batch.size) / accumulation, batchIndex, clock, ph);
    }
    let t0 = clock.now();
    if (cfg.detectAnomaly) {
      const bad = await firstNonFinite(this.accumulated!, this.names);
      if (bad) throw new NonFiniteValueError(batchIndex, `gradient of ${bad}`);
      ph.backward += clock.now() - t0;
    }
    t0 = clock.now();
    if ((batchIndex + 1) % accumulation === 0) {
      await this.applyUpdate();
      ph.optimizer = clock.now() - t0;
    }
    return { loss: loss * accumulation, phasesMs: ph, numTensors: tf.memory().numTensors };
  }

  async evaluate(batch: HostBatch, clock: ClockPort): Promise<EvalResult> {
    let t0 = clock.now();
    const dev = uploadBatch(batch, 0, batch.size);
    await settle(dev.targets[0]);
    const hostToDevice = clock.now() - t0;
    t0 = clock.now();
    const out = applyKept(this.network, dev, false);
    await settle(out.logits);
    const forward = clock.now() - t0;
    t0 = clock.now();
    const scalars = tf.tidy(() => {
      const m = this.objective.metrics(out, dev);
      return { names: Object.keys(m), values: tf.stack([this.objective.loss(out, dev), ...Object.values(m)]) };
    });
    const values = await scalars.values.data();
    tf.dispose([scalars.values, out.logits, out.value ?? []]);
    disposeDeviceBatch(dev);
    const metrics = Object.fromEntries(scalars.names.map((n, i) => [n, values[i + 1]]));
    return { loss: values[0], metrics, phasesMs: { hostToDevice, forward, loss: clock.now() - t0 } };
  }

  dispose(): void {
    tf.dispose(this.accumulated ?? []);
    this.accumulated = null;
    this.optimizer.dispose();
    this.network.dispose();
  }

  private async accumulateGradients(batch: HostBatch, start: number, end: number, weight: number, batchIndex: number, clock: ClockPort, ph: Phases): Promise<number> {
    let t0 = clock.now();
    const dev = uploadBatch(batch, start, end);
    await settle(dev.targets[0]);
    ph.hostToDevice += clock.now() - t0;
    this.tape.begin();
    let grads: tf.Tensor[];
    let lossValue: number;
    try {
      t0 = clock.now();
      const out = applyKept(this.network, dev, true);
      await settle(out.logits);
      ph.forward += clock.now() - t0;
      t0 = clock.now();
      const loss = tf.tidy(() => tf.mul(this.objective.loss(out, dev), weight));
      tf.dispose([out.logits, out.value ?? []]);
      lossValue = (await loss.data())[0] / weight;
      ph.loss += clock.now() - t0;
      if (this.options.training.detectAnomaly && !Number.isFinite(lossValue)) throw new NonFiniteValueError(batchIndex, 'loss');
      t0 = clock.now();
      grads = this.tape.backward(loss as tf.Scalar, this.variables);
      loss.dispose();
    } catch (e) {
      this.tape.clear();
      throw e;
    } finally {
      disposeDeviceBatch(dev);
    }
    this.addToAccumulated(grads);
    await settle(this.accumulated![this.accumulated!.length - 1]);
    ph.backward += clock.now() - t0;
    return (lossValue * (end - start)) / batch.size;
  }

  private addToAccumulated(grads: tf.Tensor[]): void {
    if (!this.accumulated) {
      this.accumulated = grads;
      return;
    }
    const prev = this.accumulated;
    this.accumulated = prev.map((g, i) => tf.add(g, grads[i]));
    tf.dispose([...prev, ...grads]);
  }

  private async applyUpdate(): Promise<void> {
    const cfg = this.options.training;
    let grads = this.accumulated!;
    this.accumulated = null;
    if (cfg.gradientClip > 0) {
      const clipped = clipByGlobalNorm(grads, cfg.gradientClip);
      tf.dispose(grads);
      grads = clipped;
    }
    this.optimizer.apply(grads, this.schedule(this.optimizerSteps));
    tf.dispose(grads);
    this.optimizerSteps++;
    await settle(this.variables[this.variables.length - 1]);
  }
}

/** Runs the network in a tidy scope, keeping only its outputs. */
function applyKept(network: ShogiNetwork, dev: DeviceBatch, training: boolean): NetworkOutputs {
  const [logits, value] = tf.tidy(() => {
    const o = network.apply(dev.inputs, training);
    return o.value ? [o.logits, o.value] : [o.logits];
  });
  return { logits: logits as tf.Tensor2D, value: (value as tf.Tensor2D | undefined) ?? null };
}

/** The engine's trainer factory for the benchmark use case. @public */
export const createTrainer: TrainerFactory = (options) => new TfjsTrainer(options);
