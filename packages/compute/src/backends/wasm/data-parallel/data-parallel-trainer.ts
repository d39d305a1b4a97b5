import { createLrSchedule, isUploadedBatch } from '@maou/bench-engine';
import type {
  CyclePlan,
  EvalResult,
  MonotonicClock,
  ProfiledStep,
  StepResult,
  Trainer,
  TrainerOptions,
  UploadedBatch,
} from '@maou/bench-engine/contracts';
import { copyBatchRows, type HostBatch, type PhaseKernels, type Stage } from '@maou/bench-domain';
import type { WasmKernelSet } from '../kernels/register-wasm-kernels';
import { cpuKernelSelection } from '../native/native-kernels';
import { ReplicaPool } from './replica-pool';
import type { FromReplica } from './replica-protocol';

type Stepped = Extract<FromReplica, { type: 'stepped' }>;
type Evaluated = Extract<FromReplica, { type: 'evaluated' }>;

/** Near-equal contiguous shards [start, end) of `rows`, one per replica (empty ones when rows < replicas). */
const shardBounds = (rows: number, replicas: number): [number, number][] =>
  Array.from({ length: replicas }, (_, k) => [
    Math.floor((k * rows) / replicas),
    Math.floor(((k + 1) * rows) / replicas),
  ]);

// Phases are the slowest replica's: the step waited for it. The optimiser phase is left out of the comparison, since
// it holds the wait at the gradient barrier, which is longest for the fastest replica.
const slowest = <T extends { phasesMs: object }>(results: readonly T[]): T =>
  results.reduce((a, b) => (work(b.phasesMs) > work(a.phasesMs) ? b : a));
const work = (phases: object): number =>
  Object.entries(phases).reduce((n: number, [k, v]) => (k === 'optimizer' ? n : n + Number(v)), 0);

/**
 * Data-parallel training on the wasm backend: one single-threaded tfjs-wasm replica per worker thread, each
 * training on a contiguous shard of every batch; gradients are summed across replicas before every update, so the
 * update is the whole batch's (see `GradientExchange` for batch norm). Steps the same way a `TfjsTrainer` does,
 * so the use cases do not know the difference.
 * @public
 */
export class DataParallelTrainer implements Trainer {
  readonly stage: Stage;
  private readonly pool: ReplicaPool;
  private sizes: { parameterCount: number; trainableParameterCount: number; multiplyAddsPerSample: number } | null =
    null;
  private startup: Promise<void> | null = null;
  private learningRate: number;
  private nextCycle: CyclePlan | null = null;

  constructor(options: TrainerOptions, replicas: number, kernels: WasmKernelSet = 'fast') {
    if (!Number.isInteger(replicas) || replicas < 1)
      throw new Error(`data-parallel replicas must be a positive integer, got ${replicas}`);
    this.stage = options.stage;
    const t = options.training;
    // Before the first update the rate is the schedule's first value, as on one trainer; later the replicas report it.
    this.learningRate = createLrSchedule(
      t.lrScheduler,
      t.learningRate,
      Math.ceil(options.totalSteps / Math.max(1, t.gradientAccumulationSteps)),
    )(0);
    const conv = cpuKernelSelection();
    this.pool = new ReplicaPool({
      options: { ...options, backend: undefined },
      replicas,
      kernels,
      cpuKernels: conv.kind === 'native' ? conv.isa : 'wasm',
    });
  }

  get replicas(): number {
    return this.pool.size;
  }

  get parameterCount(): number {
    return this.started().parameterCount;
  }

  get trainableParameterCount(): number {
    return this.started().trainableParameterCount;
  }

  get multiplyAddsPerSample(): number {
    return this.started().multiplyAddsPerSample;
  }

  ready(): Promise<void> {
    this.startup ??= this.pool.started.then((r) => {
      this.sizes = {
        parameterCount: r.parameterCount,
        trainableParameterCount: r.trainableParameterCount,
        multiplyAddsPerSample: r.multiplyAddsPerSample,
      };
    });
    return this.startup;
  }

  async step(batch: HostBatch | UploadedBatch, _clock: MonotonicClock): Promise<StepResult> {
    return (await this.profiledOrPlain(batch, null)).result;
  }

  async profiledStep(batch: HostBatch, _clock: MonotonicClock, batchIndex: number): Promise<ProfiledStep> {
    const { result, phases, peakBytes } = await this.profiledOrPlain(batch, batchIndex);
    return { result, phases: phases ?? [], ...(peakBytes === undefined ? {} : { peakBytes }) };
  }

  async evaluate(batch: HostBatch | UploadedBatch, _clock: MonotonicClock): Promise<EvalResult> {
    const host = hostOnly(batch);
    if (host.size === 0) throw new Error('data-parallel evaluate: the batch has no rows');
    await this.ready();
    const bounds = shardBounds(host.size, this.replicas);
    const answers = (await this.pool.request((k, id) => ({
      type: 'evaluate',
      id,
      shard: copyBatchRows(host, ...bounds[k]!),
    }))) as Evaluated[];
    // Each replica's loss and metrics are means over its shard: weight them by the shard's rows.
    const parts = answers
      .map((a, k) => ({ r: a.result, w: (bounds[k]![1] - bounds[k]![0]) / host.size }))
      .filter((p) => p.w > 0);
    const metrics: Record<string, number> = {};
    for (const { r, w } of parts)
      for (const [name, v] of Object.entries(r.metrics)) metrics[name] = (metrics[name] ?? 0) + v * w;
    return {
      loss: parts.reduce((n, p) => n + p.r.loss * p.w, 0),
      metrics,
      phasesMs: slowest(parts.map((p) => p.r)).phasesMs,
    };
  }

  currentLearningRate(): number {
    return this.learningRate;
  }

  /** Sent to every replica with the next step; each applies it at its next cycle boundary, all at the same batch. */
  planCycle(plan: CyclePlan): void {
    this.nextCycle = plan;
  }

  dispose(): void {
    this.pool.close();
  }

  private started(): { parameterCount: number; trainableParameterCount: number; multiplyAddsPerSample: number } {
    if (!this.sizes) throw new Error('data-parallel trainer: await ready() before reading its sizes');
    return this.sizes;
  }

  private async profiledOrPlain(
    batch: HostBatch | UploadedBatch,
    profileBatch: number | null,
  ): Promise<{ result: StepResult; phases: PhaseKernels[] | null; peakBytes?: number }> {
    const host = hostOnly(batch);
    await this.ready();
    const bounds = shardBounds(host.size, this.replicas);
    const plan = this.nextCycle;
    this.nextCycle = null;
    const answers = (await this.pool.request((k, id) => ({
      type: 'step',
      id,
      shard: copyBatchRows(host, ...bounds[k]!),
      rowsInBatch: host.size,
      profileBatch: k === 0 ? profileBatch : null,
      ...(plan ? { plan } : {}),
    }))) as Stepped[];
    this.learningRate = answers[0]!.learningRate;
    const results = answers.map((a) => a.result);
    // Each replica's loss is its shard's mean weighted by the shard's share of the batch, so they add up.
    const result: StepResult = {
      loss: results.reduce((n, r) => n + r.loss, 0),
      phasesMs: slowest(results).phasesMs,
      numTensors: Math.max(...results.map((r) => r.numTensors)),
      ...mergedMemoryAndNorms(results),
      ...(results[0]!.accumulation ? { accumulation: results[0]!.accumulation } : {}),
    };
    const peakBytes = answers[0]!.peakBytes;
    return { result, phases: answers[0]!.phases, ...(peakBytes === undefined ? {} : { peakBytes }) };
  }
}

/**
 * The largest replica's memory figure (each has its own heap), and gradient norms: every replica's micro-batches are
 * pieces of the update, and the summed update is the same on every replica.
 */
function mergedMemoryAndNorms(results: readonly StepResult[]): Pick<StepResult, 'memoryBytes' | 'gradientNorms'> {
  const memory = results.flatMap((r) => (r.memoryBytes === undefined ? [] : [r.memoryBytes]));
  const norms = results.flatMap((r) => (r.gradientNorms ? [r.gradientNorms] : []));
  return {
    ...(memory.length ? { memoryBytes: Math.max(...memory) } : {}),
    ...(norms.length
      ? {
          gradientNorms: {
            smallRows: norms.flatMap((n) => n.smallRows),
            smallSquaredNorms: norms.flatMap((n) => n.smallSquaredNorms),
            bigRows: norms[0]!.bigRows,
            bigSquaredNorm: norms[0]!.bigSquaredNorm,
          },
        }
      : {}),
  };
}

function hostOnly(batch: HostBatch | UploadedBatch): HostBatch {
  if (isUploadedBatch(batch)) throw new Error('data-parallel trainer takes host batches only (it has no upload)');
  return batch;
}
