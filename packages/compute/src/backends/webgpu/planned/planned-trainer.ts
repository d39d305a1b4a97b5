import * as tf from '@tensorflow/tfjs-core';
import { createLrSchedule, type LrSchedule, type TfjsTrainer } from '@maou/bench-engine';
import type { EvalResult, StepResult, Trainer, TrainerOptions, UploadedBatch } from '@maou/bench-engine/contracts';
import {
  type BackendStepSummary,
  effectiveTrainableLayers,
  type HostBatch,
  isResNetPreset,
  type PhaseKernels,
} from '@maou/bench-domain';
import {
  type GpuBuffer,
  type GpuCommandEncoder,
  type GpuComputePipeline,
  type GpuDevice,
  MAP_READ,
  USAGE,
} from './gpu-types';
import { LOSS_SCALING, SCALE_FLOATS } from './loss-scaling';
import { MaterializedStep, SHARED_BUFFERS } from './materialize';
import {
  describeStep,
  flatParameters,
  type PlanSettings,
  type SplitSizes,
  type StepDescription,
} from './step-description';

/** Knobs of the planned trainer that do not come from the training flags. @public */
export interface PlannedTrainerOptions {
  /**
   * Read the loss every this many steps (default 1). Steps in between resolve as soon as they are submitted and
   * report a NaN loss; the reading step waits for the GPU and returns its own loss (all read ones: `lossHistory`).
   */
  readonly lossEvery?: number;
  /** how finely long reductions are split over workgroups (tests lower the sizes to reach the split paths) */
  readonly split?: Partial<SplitSizes>;
  /** mixed precision: the first loss scale (default PyTorch's 65,536; tests force an overflow with a huge one) */
  readonly initialLossScale?: number;
  /** mixed precision: good steps before the loss scale doubles (default 2,000) */
  readonly scaleGrowthInterval?: number;
}

/** Loss-scaling state as last read back with a loss (mixed precision). @public */
export interface LossScaleState {
  readonly scale: number;
  readonly goodSteps: number;
  readonly skippedSteps: number;
}

type Clock = Parameters<Trainer['step']>[1];

/** Why the planned step cannot run a configuration, or null when it can. @public */
export function plannedStepRefusal(options: TrainerOptions): string | null {
  const t = options.training;
  if (!isResNetPreset(t.preset)) return `--model-architecture ${t.preset} (the plan builds the ResNet presets)`;
  if (effectiveTrainableLayers(t) !== null) return '--freeze-backbone / --trainable-layers';
  if (t.adaptiveBatch) return '--adaptive-batch (its accumulation steps change during the run)';
  if (t.gradientAccumulationSteps > 1) return `--gradient-accumulation-steps ${t.gradientAccumulationSteps}`;
  if (options.stage === 2 && t.stage2HiddenDim > 0 && t.stage2HeadDropout > 0)
    return `--stage2-head-dropout ${t.stage2HeadDropout}`;
  if (t.detectAnomaly) return '--detect-anomaly (it reads every gradient back inside the step)';
  if (options.measureGradientNorms) return 'gradient-norm measurement (batch study)';
  return null;
}

/** The plan's settings from the trainer's options. @public */
export const planSettings = (o: TrainerOptions, split?: Partial<SplitSizes>): PlanSettings => {
  const t = o.training;
  if (!isResNetPreset(t.preset)) throw new Error(`the planned step builds the ResNet presets, not ${t.preset}`);
  return {
    preset: t.preset,
    shape: o.networkShape,
    stage: o.stage,
    stage2HiddenDim: t.stage2HiddenDim,
    policyLossRatio: t.policyLossRatio,
    valueLossRatio: t.valueLossRatio,
    stage1PosWeight: t.stage1PosWeight,
    stage2: {
      posWeight: t.stage2PosWeight,
      gammaPos: t.stage2GammaPos,
      gammaNeg: t.stage2GammaNeg,
      clip: t.stage2Clip,
    },
    update: {
      optimizer: t.optimizer,
      beta1: t.beta1,
      beta2: t.beta2,
      eps: t.eps,
      weightDecay: t.weightDecay,
      momentum: t.momentum,
      clip: t.gradientClip,
    },
    split,
    activations: t.mixedPrecision ? 'f16' : 'f32',
  };
};

/** The GPU device of the active tfjs WebGPU backend (the planned step shares it). */
function activeDevice(): GpuDevice {
  if (tf.getBackend() !== 'webgpu')
    throw new Error(`the planned webgpu step needs the webgpu backend active, not '${tf.getBackend()}'`);
  return (tf.backend() as unknown as { device: GpuDevice }).device;
}

const stripUid = (name: string) => name.replace(/#.*$/, '');

/** A ring slot: the loss, then (mixed precision) loss scale, good steps, skipped steps. */
const RING_BYTES = 16;
/** Shared buffers whose size the plan gives (the rest are parameter-sized, or R). */
const SIZED_BY_PLAN = new Set(['scale', 'normParts', 'hyper']);

/** IEEE half floats to f32 (for reading f16 buffers back in tests). */
function halfToFloat(h: Uint16Array): Float32Array {
  const out = new Float32Array(h.length);
  h.forEach((x, i) => {
    const sign = x & 0x8000 ? -1 : 1;
    const e = (x >> 10) & 0x1f;
    const m = x & 0x3ff;
    out[i] = sign * (e === 0 ? m * 2 ** -24 : e === 31 ? (m ? Number.NaN : Infinity) : (1 + m / 1024) * 2 ** (e - 15));
  });
  return out;
}

/** Compiled pipelines by shader source, per device: trainers of the same shapes (a new run, a test) reuse them. */
const pipelineCache = new WeakMap<GpuDevice, Map<string, GpuComputePipeline>>();
const pipelinesOf = (device: GpuDevice): Map<string, GpuComputePipeline> => {
  let cache = pipelineCache.get(device);
  if (!cache) pipelineCache.set(device, (cache = new Map()));
  return cache;
};

/**
 * The training step as one planned submission (`--gpu webgpu`): parameters, gradients and AdamW/SGD state live
 * in flat GPU buffers; every activation buffer, pipeline and bind group is made once per batch size; a step
 * writes the batch and four hyper-parameters, records all dispatches into one compute pass of one command
 * encoder, copies the loss into a ring of mappable buffers and submits once. The engine's `TfjsTrainer` is kept
 * as the reference: it supplies the initial weights (same seed, same order) and runs `evaluate` on weights
 * copied back from the GPU.
 * @public
 */
export class PlannedWebgpuTrainer implements Trainer {
  readonly stage;
  readonly parameterCount: number;
  readonly multiplyAddsPerSample: number;
  private readonly device: GpuDevice;
  private readonly settings: PlanSettings;
  private readonly schedule: LrSchedule;
  private readonly shared = new Map<string, GpuBuffer>();
  private readonly plans = new Map<number, Promise<MaterializedStep>>();
  private readonly ring: GpuBuffer[];
  private readonly lossEvery: number;
  private readonly losses: number[] = [];
  private pendingSlots = 0;
  private setup: Promise<void> | null = null;
  private optimizerSteps = 0;
  private steps = 0;
  /** dispatches the last step recorded */
  lastDispatchCount = 0;
  /** host time of the last step: batch upload, encoding and submit (not the wait for the GPU) */
  lastHostMs = 0;
  private readonly hostMs: number[] = [];
  private readonly mixed: boolean;
  private readonly initialLossScale: number;
  /** loss scale, good steps in a row and skipped steps, read with the last loss (mixed precision) */
  lossScale: LossScaleState | null = null;

  constructor(
    private readonly options: TrainerOptions,
    private readonly reference: TfjsTrainer,
    o: PlannedTrainerOptions = {},
  ) {
    const refusal = plannedStepRefusal(options);
    if (refusal)
      throw new Error(
        `the planned webgpu step cannot run ${refusal}; set MAOU_WEBGPU_STEP=tfjs to train on the tfjs path`,
      );
    this.stage = options.stage;
    this.parameterCount = reference.parameterCount;
    this.multiplyAddsPerSample = reference.multiplyAddsPerSample;
    this.device = activeDevice();
    this.mixed = options.training.mixedPrecision === true;
    if (this.mixed && !this.device.features.has('shader-f16'))
      throw new Error(
        '--mixed-precision needs the WebGPU device feature shader-f16, which this device was not created with (the adapter lacks it)',
      );
    this.initialLossScale = o.initialLossScale ?? LOSS_SCALING.initialScale;
    this.settings = { ...planSettings(options, o.split), scaleGrowthInterval: o.scaleGrowthInterval };
    this.schedule = createLrSchedule(
      options.training.lrScheduler,
      options.training.learningRate,
      Math.ceil(options.totalSteps),
    );
    this.lossEvery = Math.max(1, Math.floor(o.lossEvery ?? 1));
    this.ring = Array.from({ length: this.lossEvery }, () =>
      this.device.createBuffer({ size: RING_BYTES, usage: USAGE.MAP_READ | USAGE.COPY_DST, label: 'loss ring' }),
    );
  }

  /** Dispatches of one step at this batch size, from the plan (no GPU work). */
  dispatchesPerStep(batch: number): number {
    return describeStep(this.settings, batch).dispatches.length;
  }

  ready(): Promise<void> {
    this.setup ??= this.uploadInitialState();
    return this.setup;
  }

  currentLearningRate(): number {
    return this.schedule(this.optimizerSteps);
  }

  /** For the report's backend section: dispatches and host milliseconds per step (median, first step left out). */
  stepSummary(): BackendStepSummary {
    const measured = this.hostMs.slice(1).sort((a, b) => a - b);
    return {
      kind: 'webgpu planned step (one command encoder, one submit per step)',
      dispatches_per_step: this.lastDispatchCount,
      submits_per_step: 1,
      host_ms_per_step: measured.length ? +measured[Math.floor(measured.length / 2)]!.toFixed(3) : null,
      precision: this.mixed ? 'mixed' : 'f32',
      ...(this.mixed
        ? {
            mixed_precision: {
              activations: 'f16',
              master_weights: 'f32',
              initial_loss_scale: this.initialLossScale,
              loss_scale: this.lossScale?.scale ?? null,
              skipped_steps: this.lossScale?.skippedSteps ?? null,
              growth_interval: this.settings.scaleGrowthInterval ?? LOSS_SCALING.growthInterval,
            },
          }
        : {}),
      notes: [
        'phases are not separated inside the one submission: a step\'s GPU time shows as "other" in the phase breakdown; --enable-profiling gives per-kernel GPU time from timestamp queries',
        this.lossEvery === 1
          ? 'the loss is read back after every step (a 16-byte mapped ring slot: the loss, and with --mixed-precision the loss-scaling state)'
          : `the loss is read back every ${this.lossEvery} steps`,
      ],
    };
  }

  /** GPU bytes of the plans' and the shared buffers, plus what tfjs holds (the reference network). */
  private async memoryBytes(): Promise<number> {
    const plans = await Promise.all(this.plans.values());
    let n = plans.reduce((s, p) => s + p.ownBytes(), 0);
    for (const b of this.shared.values()) n += b.size;
    return n + tf.memory().numBytes;
  }

  /** Every loss read so far, in step order (NaN for none). */
  lossHistory(): readonly number[] {
    return this.losses;
  }

  async step(batch: HostBatch | UploadedBatch, clock: Clock): Promise<StepResult> {
    if ('pieces' in batch) throw new Error('the planned webgpu step takes host batches (it has no device prefetch)');
    const micro = this.options.microBatchSize;
    if (micro !== undefined && micro < batch.size) {
      throw new Error(
        `the planned webgpu step runs whole batches: micro-batches of ${micro} rows for a batch of ${batch.size} are not planned; set MAOU_WEBGPU_STEP=tfjs`,
      );
    }
    await this.ready();
    const plan = await this.plan(batch.size);
    const t0 = clock.now();
    this.writeBatch(plan, batch);
    const hostToDevice = clock.now() - t0;
    const slot = this.pendingSlots;
    this.steps++;
    this.optimizerSteps++;
    const encoder = this.device.createCommandEncoder();
    plan.encode(encoder);
    this.lastDispatchCount = plan.dispatchCount;
    this.copyLoss(encoder, plan, this.ring[slot]!);
    this.device.queue.submit([encoder.finish()]);
    this.lastHostMs = clock.now() - t0;
    this.hostMs.push(this.lastHostMs);
    this.pendingSlots++;
    let loss = Number.NaN;
    if (this.pendingSlots === this.lossEvery) loss = (await this.readRing()).at(-1)!;
    return {
      loss,
      phasesMs: { hostToDevice, forward: 0, loss: 0, backward: 0, optimizer: 0 },
      numTensors: tf.memory().numTensors,
      memoryBytes: await this.memoryBytes(),
    };
  }

  /** Reads the losses still in the ring (e.g. after the last of a run of unread steps). */
  async readRing(): Promise<number[]> {
    const n = this.pendingSlots;
    this.pendingSlots = 0;
    const read: number[] = [];
    for (let i = 0; i < n; i++) read.push(await this.readSlot(this.ring[i]!));
    this.losses.push(...read);
    return read;
  }

  /** Validation runs on the reference network with the weights and running statistics copied back. */
  async evaluate(batch: HostBatch | UploadedBatch, clock: Clock): Promise<EvalResult> {
    await this.ready();
    await this.syncReference();
    return this.reference.evaluate(batch, clock);
  }

  /**
   * One step with a GPU timestamp before and after every dispatch (`timestamp-query`; each dispatch then runs in
   * its own compute pass, as WebGPU writes timestamps at pass boundaries). Kernels are attributed to the phase
   * of the plan they belong to. Refused where the adapter has no timestamp queries.
   */
  async profiledStep(
    batch: HostBatch,
    clock: Clock,
    batchIndex: number,
  ): Promise<{ result: StepResult; phases: PhaseKernels[] }> {
    if (!this.device.features.has('timestamp-query')) {
      throw new Error(
        '--enable-profiling on the planned webgpu step needs the adapter feature timestamp-query, which this adapter lacks',
      );
    }
    await this.ready();
    const plan = await this.plan(batch.size);
    this.writeBatch(plan, batch);
    const n = plan.dispatchCount;
    const set = this.device.createQuerySet({ type: 'timestamp', count: 2 * n });
    const resolved = this.device.createBuffer({ size: 16 * n, usage: USAGE.QUERY_RESOLVE | USAGE.COPY_SRC });
    const staging = this.device.createBuffer({ size: 16 * n, usage: USAGE.MAP_READ | USAGE.COPY_DST });
    const t0 = clock.now();
    this.steps++;
    this.optimizerSteps++;
    const encoder = this.device.createCommandEncoder();
    plan.encode(encoder, { set, first: 0 });
    encoder.resolveQuerySet(set, 0, 2 * n, resolved, 0);
    encoder.copyBufferToBuffer(resolved, 0, staging, 0, 16 * n);
    this.copyLoss(encoder, plan, this.ring[0]!);
    this.device.queue.submit([encoder.finish()]);
    const hostMs = clock.now() - t0;
    await staging.mapAsync(MAP_READ);
    const stamps = new BigInt64Array(staging.getMappedRange().slice(0));
    staging.unmap();
    [set, resolved, staging].forEach((o) => o.destroy());
    const loss = await this.readSlot(this.ring[0]!);
    const labels = plan.labels();
    const kernels = labels.map((name, i) => ({ name, ms: Number(stamps[2 * i + 1]! - stamps[2 * i]!) / 1e6 }));
    const starts = plan.description.phaseStarts;
    const phases: PhaseKernels[] = [
      { batch: batchIndex, phase: 'forward', kernels: kernels.slice(0, starts.loss) },
      { batch: batchIndex, phase: 'loss', kernels: kernels.slice(starts.loss, starts.backward) },
      { batch: batchIndex, phase: 'backward', kernels: kernels.slice(starts.backward, starts.optimizer) },
      { batch: batchIndex, phase: 'optimizer', kernels: kernels.slice(starts.optimizer) },
    ];
    return {
      result: {
        loss,
        phasesMs: { hostToDevice: hostMs, forward: 0, loss: 0, backward: 0, optimizer: 0 },
        numTensors: tf.memory().numTensors,
      },
      phases,
    };
  }

  /**
   * A buffer read back (for tests): the flat parameters P, gradients of the last step G, running statistics R,
   * optimiser state M/V, or with `batch` any buffer of that batch size's plan (e.g. 'dlogits').
   */
  async read(name: string, batch?: number): Promise<Float32Array> {
    await this.ready();
    const src = batch === undefined ? this.shared.get(name) : (await this.plan(batch)).buffers.get(name);
    if (!src) throw new Error(`no buffer ${name}`);
    const d = this.description(batch ?? 1);
    const floats =
      batch !== undefined || SIZED_BY_PLAN.has(name)
        ? d.buffers.get(name)!
        : name === 'R'
          ? d.runningFloats
          : d.parameterFloats;
    const half = batch !== undefined && d.halfBuffers.has(name);
    const bytes = Math.ceil((floats * (half ? 2 : 4)) / 4) * 4;
    const staging = this.device.createBuffer({ size: bytes, usage: USAGE.MAP_READ | USAGE.COPY_DST });
    const encoder = this.device.createCommandEncoder();
    encoder.copyBufferToBuffer(src, 0, staging, 0, bytes);
    this.device.queue.submit([encoder.finish()]);
    await staging.mapAsync(MAP_READ);
    const raw = staging.getMappedRange().slice(0);
    staging.unmap();
    staging.destroy();
    return half ? halfToFloat(new Uint16Array(raw, 0, floats)) : new Float32Array(raw);
  }

  /** Engine parameter names with their offsets in the flat buffers. */
  parameterOffsets(): ReadonlyMap<string, number> {
    return this.description(1).offsets;
  }

  dispose(): void {
    void Promise.all(this.plans.values()).then(
      (plans) => plans.forEach((p) => p.dispose()),
      () => undefined,
    );
    for (const b of [...this.shared.values(), ...this.ring]) b.destroy();
    this.reference.dispose();
  }

  private description(batch: number): StepDescription {
    return describeStep(this.settings, batch);
  }

  private plan(batch: number): Promise<MaterializedStep> {
    let p = this.plans.get(batch);
    if (!p) {
      p = MaterializedStep.create(this.device, this.description(batch), this.shared, pipelinesOf(this.device));
      this.plans.set(batch, p);
    }
    return p;
  }

  /** Copies the reference's initial weights into P (and decay flags into D, running statistics into R). */
  private async uploadInitialState(): Promise<void> {
    const params = this.reference.network.store.parameters;
    const { preset, stage, stage2HiddenDim, shape } = this.settings;
    const flat = flatParameters(preset, stage, stage2HiddenDim, shape);
    const mismatch =
      params.length !== flat.length
        ? `${params.length} parameters, planned ${flat.length}`
        : flat.findIndex(
            (f, i) => f.name !== params[i]!.name || f.size !== params[i]!.variable.size || f.decay !== params[i]!.decay,
          );
    if (mismatch !== -1)
      throw new Error(
        `the planned webgpu step does not match the engine's network (${typeof mismatch === 'string' ? mismatch : `at ${flat[mismatch]!.name}`})`,
      );
    const d = this.description(1);
    const shared = (name: string) => {
      let b = this.shared.get(name);
      if (!b) {
        b = this.device.createBuffer({
          size: Math.max(16, Math.ceil((d.buffers.get(name)! * 4) / 16) * 16),
          usage: USAGE.STORAGE | USAGE.COPY_DST | USAGE.COPY_SRC,
          label: name,
        });
        this.shared.set(name, b);
      }
      return b;
    };
    for (const name of SHARED_BUFFERS) if (d.buffers.has(name)) shared(name);
    const P = new Float32Array(d.parameterFloats);
    const D = new Float32Array(d.parameterFloats);
    const values = await Promise.all(params.map((p) => p.variable.data() as Promise<Float32Array>));
    params.forEach((p, i) => {
      const o = d.offsets.get(p.name)!;
      P.set(values[i]!, o);
      if (p.decay) D.fill(1, o, o + p.variable.size);
    });
    const R = new Float32Array(d.runningFloats);
    for (const v of this.reference.network.store.buffers) {
      const name = stripUid(v.name);
      const bn = name.replace(/\.running_(mean|var)$/, '');
      const o = d.runningOffsets.get(bn);
      if (o === undefined) throw new Error(`the planned webgpu step has no running statistics for ${name}`);
      R.set((await v.data()) as Float32Array, name.endsWith('_mean') ? o : o + v.size);
    }
    const q = this.device.queue;
    q.writeBuffer(shared('P'), 0, P);
    q.writeBuffer(shared('D'), 0, D);
    q.writeBuffer(shared('R'), 0, R);
    if (this.mixed) q.writeBuffer(shared('scale'), 0, Float32Array.of(this.initialLossScale, 0, 0, 0));
    // M, V and G start at zero: WebGPU clears every new buffer.
    await q.onSubmittedWorkDone();
  }

  private writeBatch(plan: MaterializedStep, batch: HostBatch): void {
    const q = this.device.queue;
    const b = (name: string) => plan.buffers.get(name)!;
    q.writeBuffer(b('ids'), 0, batch.boardIds);
    q.writeBuffer(b('hands'), 0, batch.hands);
    const t = batch.targets;
    if (t.stage !== this.stage) throw new Error(`a Stage ${t.stage} batch for a Stage ${this.stage} trainer`);
    if (t.stage === 3) {
      q.writeBuffer(b('targetA'), 0, t.moveLabel);
      q.writeBuffer(b('targetB'), 0, t.resultValue);
    } else {
      q.writeBuffer(b('targetA'), 0, t.stage === 1 ? t.reachableSquares : t.legalMoves);
    }
    const u = this.settings.update;
    const step = this.optimizerSteps + 1;
    q.writeBuffer(
      b('hyper'),
      0,
      Float32Array.of(
        this.schedule(this.optimizerSteps),
        1 - u.beta1 ** step,
        Math.sqrt(1 - u.beta2 ** step),
        step === 1 ? 1 : 0,
      ),
    );
  }

  /** The loss into a ring slot, and with mixed precision the loss-scaling state after it. */
  private copyLoss(encoder: GpuCommandEncoder, plan: MaterializedStep, slot: GpuBuffer): void {
    encoder.copyBufferToBuffer(plan.buffers.get('loss')!, 0, slot, 0, 4);
    if (this.mixed) encoder.copyBufferToBuffer(this.shared.get('scale')!, 0, slot, 4, 4 * (SCALE_FLOATS - 1));
  }

  private async readSlot(slot: GpuBuffer): Promise<number> {
    await slot.mapAsync(MAP_READ, 0, RING_BYTES);
    const v = new Float32Array(slot.getMappedRange(0, RING_BYTES).slice(0));
    slot.unmap();
    if (this.mixed) this.lossScale = { scale: v[1]!, goodSteps: v[2]!, skippedSteps: v[3]! };
    return v[0]!;
  }

  /** Weights and running statistics from the GPU into the reference network's variables. */
  private async syncReference(): Promise<void> {
    const [P, R] = [await this.read('P'), await this.read('R')];
    const d = this.description(1);
    for (const p of this.reference.network.store.parameters) {
      const o = d.offsets.get(p.name)!;
      tf.tidy(() => p.variable.assign(tf.tensor(P.subarray(o, o + p.variable.size), p.variable.shape)));
    }
    for (const v of this.reference.network.store.buffers) {
      const name = stripUid(v.name);
      const o = d.runningOffsets.get(name.replace(/\.running_(mean|var)$/, ''))!;
      const start = name.endsWith('_mean') ? o : o + v.size;
      tf.tidy(() => v.assign(tf.tensor(R.subarray(start, start + v.size), v.shape)));
    }
  }
}
