import * as tf from '@tensorflow/tfjs-core';
import { effectiveTrainableLayers, type GradientNormSample, type HostBatch, type Stage } from '@maou/bench-domain';
import { firstNonFinite, NonFiniteValueError } from './anomaly';
import {
  type DeviceBatch,
  devicePieces,
  disposeDeviceBatch,
  disposeUploadedBatch,
  isUploadedBatch,
  uploadBatch,
  uploadPieces,
} from './device-batch';
import type { UploadedBatch } from './uploaded-batch';
import { type NetworkOutputs, ShogiNetwork } from './network/shogi-network';
import { SeededRandom } from './nn/seeded-random';
import { clipByGlobalNorm, globalSquaredNorm } from './optim/clip-gradients';
import { createLrSchedule, type LrSchedule } from './optim/lr-schedule';
import { Optimizer } from './optim/optimizer';
import { type GradientExchange } from './gradient-exchange';
import { backendMemoryBytes } from './backend-memory';
import { createObjective, type StageObjective } from './stage-objective';
import { settle } from './tape/settle';
import { TapeRecorder } from './tape/tape-recorder';
import { type MonotonicClock } from './monotonic-clock';
import {
  type CyclePlan,
  type EvalResult,
  type StepResult,
  type Trainer,
  type TrainerFactory,
  type TrainerOptions,
} from './trainer';

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
  readonly trainableParameterCount: number;
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
  /** the cycle in progress: its steps, batches done in it, whether its gradient norms are measured */
  private cycle: { steps: number; done: number; measure: boolean };
  private nextCycle: CyclePlan | null = null;
  /** a planned cycle reports its accumulation on every step, also at one step a cycle */
  private planned = false;
  /** rows trained on since the last update (their batch-norm statistics are in the running buffers) */
  private rowsSinceUpdate = 0;
  /** with `measureGradientNorms`: the pieces since the last update, and the rows of the batch they belong to */
  private pieceNorms: { rows: number[]; squaredNorms: number[]; rowsInBatch: number } = {
    rows: [],
    squaredNorms: [],
    rowsInBatch: 0,
  };

  /** `exchange` makes this one data-parallel replica: gradients are summed across replicas before each update. */
  constructor(
    private readonly options: TrainerOptions,
    private readonly exchange?: GradientExchange,
  ) {
    const t = options.training;
    this.stage = options.stage;
    this.network = new ShogiNetwork({
      preset: t.preset,
      shape: options.networkShape,
      stage: options.stage,
      stage2HiddenDim: t.stage2HiddenDim,
      stage2Dropout: t.stage2HeadDropout,
      rng: new SeededRandom(options.seed),
      dropoutRng:
        options.replica === undefined ? undefined : new SeededRandom(options.seed + 7919 * (options.replica + 1)),
      vit: t.vit,
      gradientCheckpointing: t.gradientCheckpointing,
      frozenBackbone: effectiveTrainableLayers(t) === 0,
    });
    // Frozen parameters get no gradient (the tape walk skips what only they feed) and no optimiser state.
    const params = this.network.trainableParameters(effectiveTrainableLayers(t));
    this.variables = params.map((p) => p.variable);
    this.names = params.map((p) => p.name);
    this.parameterCount = this.network.parameterCount();
    this.trainableParameterCount = params.reduce((n, p) => n + p.variable.size, 0);
    this.multiplyAddsPerSample = this.network.multiplyAddsPerSample();
    this.objective = createObjective(options.stage, t);
    this.optimizer = new Optimizer(params, {
      name: t.optimizer,
      momentum: t.momentum,
      beta1: t.beta1,
      beta2: t.beta2,
      eps: t.eps,
      weightDecay: t.weightDecay,
    });
    const accumulation = Math.max(1, t.gradientAccumulationSteps);
    this.schedule = createLrSchedule(t.lrScheduler, t.learningRate, Math.ceil(options.totalSteps / accumulation));
    this.cycle = { steps: accumulation, done: 0, measure: options.measureGradientNorms ?? false };
  }

  planCycle(plan: CyclePlan): void {
    if (!Number.isInteger(plan.accumulationSteps) || plan.accumulationSteps < 1)
      throw new Error(`accumulation steps must be a positive integer, got ${plan.accumulationSteps}`);
    this.nextCycle = plan;
  }

  currentLearningRate(): number {
    return this.schedule(this.optimizerSteps);
  }

  /**
   * Copies a batch to the device ahead of its step. Micro-batching slices on the host: each micro-batch is its
   * own upload (as `step` does without prefetch), so all pieces of a prefetched batch sit on the device at once.
   */
  upload(batch: HostBatch, use: 'train' | 'evaluate'): UploadedBatch {
    return uploadPieces(batch, use === 'train' ? this.microSize(batch.size) : batch.size);
  }

  /**
   * `rowsInBatch`: a data-parallel replica trains on a shard of a larger batch; its loss and gradients are
   * weighted by the shard's share of those rows, so that the replicas' sum is the whole batch's mean.
   */
  async step(batch: HostBatch | UploadedBatch, clock: MonotonicClock, rowsInBatch = batch.size): Promise<StepResult> {
    const cfg = this.options.training;
    const batchIndex = this.batches++;
    if (this.cycle.done === 0 && this.nextCycle) {
      this.cycle = {
        ...this.cycle,
        steps: this.nextCycle.accumulationSteps,
        measure: this.nextCycle.measureGradientNorms,
      };
      this.nextCycle = null;
      this.planned = true;
    }
    const accumulation = this.cycle.steps;
    const ph: Phases = { hostToDevice: 0, forward: 0, loss: 0, backward: 0, optimizer: 0 };
    const pieces = isUploadedBatch(batch)
      ? devicePieces(batch).map((p) => () => p)
      : hostPieces(batch, this.microSize(batch.size));
    let loss = 0;
    try {
      for (const piece of pieces) {
        // Each piece's gradient is weighted by its share of the batch and by 1/accumulation (as maou does); the loss
        // returned is the batch's mean, the same figure at any accumulation (maou's report divides it, see maou-view).
        loss += await this.accumulateGradients(piece, rowsInBatch, accumulation, batchIndex, clock, ph);
      }
    } finally {
      if (isUploadedBatch(batch)) disposeUploadedBatch(batch);
    }
    let t0 = clock.now();
    if (cfg.detectAnomaly && this.accumulated) {
      const bad = await firstNonFinite(this.accumulated!, this.names);
      if (bad) throw new NonFiniteValueError(batchIndex, `gradient of ${bad}`);
      ph.backward += clock.now() - t0;
    }
    t0 = clock.now();
    let gradientNorms: GradientNormSample | undefined;
    // maou's counter: the cycle completes at its last batch; a new plan applies from the next batch on.
    const optimizerStep = ++this.cycle.done >= accumulation;
    if (optimizerStep) {
      gradientNorms = await this.applyUpdate(accumulation);
      this.cycle.done = 0;
      ph.optimizer = clock.now() - t0;
    }
    return {
      loss,
      phasesMs: ph,
      numTensors: tf.memory().numTensors,
      memoryBytes: backendMemoryBytes(),
      ...(gradientNorms ? { gradientNorms } : {}),
      ...(accumulation > 1 || this.planned ? { accumulation: { steps: accumulation, optimizerStep } } : {}),
    };
  }

  async evaluate(batch: HostBatch | UploadedBatch, clock: MonotonicClock): Promise<EvalResult> {
    if (isUploadedBatch(batch) && batch.pieces.length !== 1) {
      disposeUploadedBatch(batch);
      throw new Error(`evaluate needs a batch uploaded whole, got ${batch.pieces.length} pieces`);
    }
    let t0 = clock.now();
    const dev = isUploadedBatch(batch) ? devicePieces(batch)[0]! : uploadBatch(batch, 0, batch.size);
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

  private microSize(rows: number): number {
    return Math.min(rows, Math.max(1, this.options.microBatchSize ?? rows));
  }

  /**
   * One piece: `piece()` uploads it now, or hands over a prefetched one; either way `hostToDevice` ends when the
   * device holds it. On WebGPU a prefetched copy was queued during an earlier step, so the settle mostly finds it
   * done; on wasm/cpu the copy is synchronous main-thread work that already ran between (or at the awaits of)
   * earlier steps, so there is no real overlap and its cost moves out of `hostToDevice` into those spans.
   */
  private async accumulateGradients(
    piece: () => DeviceBatch,
    batchSize: number,
    accumulation: number,
    batchIndex: number,
    clock: MonotonicClock,
    ph: Phases,
  ): Promise<number> {
    let t0 = clock.now();
    const dev = piece();
    const weight = dev.size / batchSize / accumulation;
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
      if (this.options.training.detectAnomaly && !Number.isFinite(lossValue))
        throw new NonFiniteValueError(batchIndex, 'loss');
      t0 = clock.now();
      grads = this.tape.backward(loss as tf.Scalar, this.variables);
      loss.dispose();
    } catch (e) {
      this.tape.clear();
      throw e;
    } finally {
      disposeDeviceBatch(dev);
    }
    if (this.cycle.measure) {
      // The piece's gradient is its mean gradient times `weight`: undo that to get |G_piece|².
      this.pieceNorms.rows.push(dev.size);
      this.pieceNorms.squaredNorms.push((await squaredNorm(grads)) / weight ** 2);
      this.pieceNorms.rowsInBatch = batchSize;
    }
    this.addToAccumulated(grads);
    this.rowsSinceUpdate += dev.size;
    await settle(this.accumulated![this.accumulated!.length - 1]);
    ph.backward += clock.now() - t0;
    return (lossValue * dev.size) / batchSize;
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

  /** Returns the update's gradient norms with `measureGradientNorms`. */
  private async applyUpdate(accumulation: number): Promise<GradientNormSample | undefined> {
    const cfg = this.options.training;
    // A replica whose shard was empty still takes part in the exchange, with zero gradients.
    let grads = this.accumulated ?? this.variables.map((v) => tf.zerosLike(v));
    this.accumulated = null;
    if (this.exchange) {
      const own = grads;
      grads = await this.exchange.allReduce(own, this.network.store.buffers, this.rowsSinceUpdate);
      tf.dispose(own);
    }
    // The summed update is the mean gradient over every row of the batch (all replicas, all accumulation steps).
    const norms = this.cycle.measure ? await this.takeGradientNorms(grads, accumulation) : undefined;
    if (cfg.gradientClip > 0) {
      const clipped = clipByGlobalNorm(grads, cfg.gradientClip);
      tf.dispose(grads);
      grads = clipped;
    }
    this.optimizer.apply(grads, this.schedule(this.optimizerSteps));
    tf.dispose(grads);
    this.optimizerSteps++;
    this.rowsSinceUpdate = 0;
    await settle(this.variables[this.variables.length - 1]);
    return norms;
  }

  private async takeGradientNorms(update: readonly tf.Tensor[], accumulation: number): Promise<GradientNormSample> {
    const { rows, squaredNorms, rowsInBatch } = this.pieceNorms;
    this.pieceNorms = { rows: [], squaredNorms: [], rowsInBatch: 0 };
    return {
      smallRows: rows,
      smallSquaredNorms: squaredNorms,
      bigRows: rowsInBatch * accumulation,
      bigSquaredNorm: await squaredNorm(update),
    };
  }
}

/** Σ‖g‖² over a list of gradients, read back as one number. */
async function squaredNorm(grads: readonly tf.Tensor[]): Promise<number> {
  const total = globalSquaredNorm(grads);
  const [v] = await total.data();
  total.dispose();
  return v!;
}

/** Lazy uploads of a host batch's micro-batches, one when its turn comes. */
function hostPieces(batch: HostBatch, micro: number): (() => DeviceBatch)[] {
  const pieces: (() => DeviceBatch)[] = [];
  for (let start = 0; start < batch.size; start += micro)
    pieces.push(() => uploadBatch(batch, start, Math.min(batch.size, start + micro)));
  return pieces;
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
