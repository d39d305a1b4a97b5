import type { HostBatch } from '@maou/bench-domain';
import type { Trainer } from '@maou/bench-engine';
import { FakeClock } from '../../testing';
import type { CpuCounters } from '../../ports/resource-monitor.port';
import { runTrainingPass } from './training-pass';

// Edges faked: a trainer whose step advances a fake clock by 20 ms; this process keeps both cores busy.
const batch: HostBatch = {
  stage: 3,
  size: 1,
  boardIds: new Int32Array(81),
  hands: new Float32Array(14),
  targets: { stage: 3, moveLabel: new Float32Array(1496), resultValue: new Float32Array(1) },
};

describe('runTrainingPass', () => {
  it('given a stopping rule whose own work takes time, then no batch counts that time, wall or CPU', async () => {
    const clock = new FakeClock();
    const trainer = {
      async step() {
        clock.advance(20);
        return {
          loss: 1,
          numTensors: 1,
          phasesMs: { hostToDevice: 0, forward: 10, loss: 0, backward: 10, optimizer: 0 },
        };
      },
    } as unknown as Trainer;
    async function* batches(): AsyncGenerator<HostBatch> {
      for (;;) yield batch;
    }
    const cpuCounters = (): CpuCounters => ({
      processMs: 2 * clock.now(),
      busyMs: 2 * clock.now(),
      stealMs: 0,
      cores: 2,
    });
    const asked: number[] = [];
    const { timings } = await runTrainingPass({
      batches: batches(),
      trainer,
      clock,
      planned: 5,
      warmup: 0,
      profile: new Set(),
      cpuCounters,
      stopAfter: (_timings, elapsedMs) => {
        asked.push(elapsedMs);
        clock.advance(3); // the rule judging the batches so far
        return false;
      },
    });
    expect(timings.map((t) => t.wallMs)).toEqual([20, 20, 20, 20, 20]);
    expect(timings.map((t) => t.cpu?.processMs)).toEqual([40, 40, 40, 40, 40]);
    // the time budget still sees the whole pass, the rule's work included
    expect(asked).toEqual([20, 43, 66, 89, 112]);
  });

  it('given a stop request set by a signal handler (a macrotask) while the step trains on this thread, then the pass stops at the next batch', async () => {
    // The step resolves at once, as a one-thread wasm or cpu step does: only promises, never the event loop.
    const trainer = {
      async step() {
        return {
          loss: 1,
          numTensors: 1,
          phasesMs: { hostToDevice: 0, forward: 0, loss: 0, backward: 0, optimizer: 0 },
        };
      },
    } as unknown as Trainer;
    async function* batches(): AsyncGenerator<HostBatch> {
      for (;;) yield batch;
    }
    const stop = { aborted: false, reason: 'SIGINT' };
    // where a process's signal handler runs: a turn of the event loop, not a promise
    setImmediate(() => (stop.aborted = true));
    const pass = await runTrainingPass({
      batches: batches(),
      trainer,
      clock: new FakeClock(),
      planned: 100_000,
      warmup: 0,
      profile: new Set(),
      stop,
    });
    expect(pass.interrupted).toBe(true);
    expect(pass.timings.length).toBeLessThan(3);
  });
});
