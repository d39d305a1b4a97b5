import { closePhases, type BatchCpu, type BatchTiming, type HostBatch, type PhaseKernels } from '@maou/bench-domain';
import type { ClockPort } from '../../ports/clock.port';
import type { CpuCounters } from '../../ports/resource-monitor.port';
import { profileStep } from '@maou/bench-engine';
import type { Trainer } from '@maou/bench-engine/contracts';
import type { StopRequest } from './benchmark-training.input';
import { prefetchedBatches } from './prefetched-batches';

/** What one pass needs. */
export interface TrainingPassInput {
  readonly batches: AsyncIterator<HostBatch>;
  readonly trainer: Trainer;
  readonly clock: ClockPort;
  readonly planned: number;
  readonly warmup: number;
  /** batch indices to profile kernel by kernel */
  readonly profile: ReadonlySet<number>;
  /** batches uploaded to the device ahead of the step; 0 (default) uploads inside the step */
  readonly devicePrefetch?: number;
  readonly onBatch?: (timing: BatchTiming) => void;
  /** checked before each batch; a loader closed by the same signal ends the pass as interrupted, not failed */
  readonly stop?: StopRequest;
  /** CPU counters read at every batch boundary, for contention; null where there are none */
  readonly cpuCounters?: () => CpuCounters | null;
  /** asked after every batch with the batches so far and the pass's elapsed time; true ends the pass there */
  readonly stopAfter?: (timings: readonly BatchTiming[], elapsedMs: number) => boolean;
}

/**
 * One turn of the event loop. A step that trains on this thread (one wasm thread, the cpu backend) never waits on
 * anything but promises, so without this a signal's handler, and so `stop.aborted`, would run only after the pass.
 */
const letSignalsIn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

const cpuBetween = (a: CpuCounters | null, b: CpuCounters | null): BatchCpu | undefined => {
  if (!a || !b) return undefined;
  const processMs = b.processMs - a.processMs;
  return {
    processMs,
    othersMs: Math.max(0, b.busyMs - a.busyMs - processMs),
    stealMs: b.stealMs - a.stealMs,
    cores: b.cores,
  };
};

/**
 * Runs training batches back to back. A batch's wall time runs from the end of the previous batch (after the
 * stopping rule looked at it, if there is one) to the end of its own step, so the batches tile the training in the
 * pass and data waits are counted where they happen (with device prefetch, waiting for the loader and for uploads
 * that could not run ahead count as data wait).
 */
export const runTrainingPass = async (
  input: TrainingPassInput,
): Promise<{ timings: BatchTiming[]; kernels: PhaseKernels[]; startMs: number; interrupted: boolean }> => {
  const { trainer, clock, planned, warmup, profile } = input;
  const batches = prefetchedBatches(input.batches, trainer, input.devicePrefetch ?? 0, 'train');
  const timings: BatchTiming[] = [];
  const kernels: PhaseKernels[] = [];
  const startMs = clock.now();
  let prev = startMs;
  let interrupted = false;
  let prevCpu = input.cpuCounters?.() ?? null;
  try {
    for (let index = 0; index < planned; index++) {
      // Counted in the batch's data wait (tens of microseconds): the loop really spends it.
      if (input.stop) await letSignalsIn();
      if (input.stop?.aborted) {
        interrupted = true;
        break;
      }
      const next = await batches.next();
      if (next.done) break;
      const { host, device } = next.value;
      const dataWait = clock.now() - prev;
      let step;
      if (profile.has(index)) {
        const profiled = trainer.profiledStep
          ? await trainer.profiledStep(host, clock, index)
          : await profileStep(index, clock, (c) => trainer.step(device ?? host, c));
        step = profiled.result;
        kernels.push(...profiled.phases);
      } else {
        step = await trainer.step(device ?? host, clock);
      }
      const end = clock.now();
      const closed = closePhases(end - prev, { dataWait, ...step.phasesMs });
      const cpuNow = input.cpuCounters?.() ?? null;
      const cpu = cpuBetween(prevCpu, cpuNow);
      const timing: BatchTiming = {
        index,
        warmup: index < warmup,
        samples: host.size,
        startMs: prev - startMs,
        ...closed,
        loss: step.loss,
        numTensors: step.numTensors,
        ...(step.accumulation
          ? { accumulationSteps: step.accumulation.steps, optimizerStep: step.accumulation.optimizerStep }
          : {}),
        ...(cpu ? { cpu } : {}),
        ...(host.opened ? { fileOpen: host.opened } : {}),
      };
      timings.push(timing);
      input.onBatch?.(timing);
      prev = end;
      prevCpu = cpuNow;
      if (input.stopAfter) {
        if (input.stopAfter(timings, end - startMs)) break;
        // The stopping rule's own work is not training: the next batch starts after it. Counted in every batch of a
        // capped run (0.1–1 ms, up to 2 % of a small lite batch), it made the epoch it predicts, which never pays it,
        // look longer (ADR 0014).
        prev = clock.now();
        prevCpu = input.cpuCounters?.() ?? null;
      }
    }
  } catch (e) {
    if (!input.stop?.aborted) throw e;
    interrupted = true;
  } finally {
    // Frees batches uploaded ahead but never stepped (early stop at `planned`, or a failed step).
    await batches.return(undefined);
  }
  return { timings, kernels, startMs, interrupted };
};
