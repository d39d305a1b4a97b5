import './tfjs-copies'; // first: the tfjs-core copies load before any other module needs one
import { parentPort, workerData } from 'node:worker_threads';
import { NonFiniteValueError, profileStep, TfjsTrainer } from '@maou/bench-engine';
import type { MonotonicClock, TrainerOptions } from '@maou/bench-engine/contracts';
import { allocateBatch, MOVE_LABELS } from '@maou/bench-domain';
import { startWasmBackend } from '../wasm-backend.plugin';
import { useCpuKernels } from '../native/native-kernels';
import type { FromReplica, ReplicaFailure, ReplicaInit, ToReplica } from './replica-protocol';
import { SharedBufferExchange } from './shared-buffer-exchange';

// One data-parallel replica: a single-threaded tfjs-wasm backend and its own copy of the network.
const init = workerData as ReplicaInit;
const port = parentPort!;
const clock: MonotonicClock = { now: () => performance.now() };
const send = (m: FromReplica): void => port.postMessage(m);
let release: (() => void) | null = null;
let trainer: TfjsTrainer | null = null;

const barrier = (): Promise<void> =>
  new Promise((resolve) => {
    release = resolve;
    send({ type: 'reduce-ready' });
  });
const exchange = new SharedBufferExchange(init.replicas, init.replica, barrier);

const failure = (e: unknown): ReplicaFailure =>
  e instanceof NonFiniteValueError
    ? { name: e.name, message: e.message, batchIndex: e.batchIndex, tensorName: e.tensorName }
    : { name: e instanceof Error ? e.name : 'Error', message: e instanceof Error ? e.message : String(e) };

async function handle(m: ToReplica): Promise<void> {
  if (m.type === 'reduce-go') {
    release?.();
    return;
  }
  if (m.type === 'exchange') {
    exchange.attach(m.buffer);
    return;
  }
  const t = trainer!;
  try {
    if (m.type === 'step') {
      if (m.plan) t.planCycle(m.plan);
      const run = (c: MonotonicClock) => t.step(m.shard, c, m.rowsInBatch);
      const profiled = m.profileBatch === null ? null : await profileStep(m.profileBatch, clock, run);
      const result = profiled ? profiled.result : await run(clock);
      send({
        type: 'stepped',
        id: m.id,
        result,
        learningRate: t.currentLearningRate(),
        phases: profiled?.phases ?? null,
        ...(profiled ? { peakBytes: profiled.peakBytes } : {}),
      });
    } else if (m.shard.size === 0) {
      send({
        type: 'evaluated',
        id: m.id,
        result: { loss: 0, metrics: {}, phasesMs: { hostToDevice: 0, forward: 0, loss: 0 } },
      });
    } else {
      send({ type: 'evaluated', id: m.id, result: await t.evaluate(m.shard, clock) });
    }
  } catch (e) {
    send({ type: 'failed', id: m.id, failure: failure(e) });
  }
}

// A fresh replica's step keeps getting faster for its first ~80 steps: V8 optimises (TurboFan) the JS that runs once
// or a few times a step (tape, ops, optimizer loop) only after tens of steps, whatever the batch size. Unwarmed, the
// timed batches ran ~15 % slower until batch ~55 and short capped runs overestimated the epoch (ADR 0014:
// 80 throw-away steps of 4 rows took the late speed-up from 0.83-0.86 to 0.97-0.99, 10 of 16 rows or 40 of 8 did not).
// The rows matter little to the JS, so the steps are tiny; a network whose optimizer alone takes long (resnet) stops
// at the time cap instead, after at least the 10 steps that take out the first, slowest ones. An epoch of a few
// batches (the tests', the embedded sample's) gets no more than twice its batches.
const WARM_UP_STEPS = 80;
const MIN_WARM_UP_STEPS = 10;
const WARM_UP_CAP_MS = 3000;
const WARM_UP_ROWS = 4;

async function warmUp(options: TrainerOptions): Promise<void> {
  const throwAway = new TfjsTrainer({
    ...options,
    training: { ...options.training, detectAnomaly: false, gradientAccumulationSteps: 1 },
    microBatchSize: undefined,
  });
  const batch = allocateBatch(options.stage, WARM_UP_ROWS);
  if (batch.targets.stage === 3) for (let r = 0; r < WARM_UP_ROWS; r++) batch.targets.moveLabel[r * MOVE_LABELS] = 1;
  const steps = Math.max(MIN_WARM_UP_STEPS, Math.min(WARM_UP_STEPS, 2 * options.totalSteps));
  const start = clock.now();
  try {
    for (let i = 0; i < steps && (i < MIN_WARM_UP_STEPS || clock.now() - start < WARM_UP_CAP_MS); i++)
      await throwAway.step(batch, clock);
  } finally {
    throwAway.dispose();
  }
}

async function start(): Promise<void> {
  useCpuKernels(init.cpuKernels);
  await startWasmBackend(init.kernels);
  if (init.replicas > 1) await warmUp(init.options);
  const t = new TfjsTrainer({ ...init.options, replica: init.replica }, exchange);
  trainer = t;
  const { buffers } = t.network.store;
  // Gradients (of the parameters that train), batch-norm buffers, and one float for the rows behind those buffers.
  const exchangeFloats = t.trainableParameterCount + buffers.reduce((n, v) => n + v.size, 0) + 1;
  send({
    type: 'ready',
    parameterCount: t.parameterCount,
    trainableParameterCount: t.trainableParameterCount,
    multiplyAddsPerSample: t.multiplyAddsPerSample,
    exchangeFloats,
    learningRate: t.currentLearningRate(),
  });
}

port.on('message', (m: ToReplica) => void handle(m));
start().catch((e: unknown) => send({ type: 'failed', id: null, failure: failure(e) }));
