import * as tf from '@tensorflow/tfjs-core';
import type { PhaseKernels } from '@maou/bench-domain';
import type { MonotonicClock } from './monotonic-clock';

type StepPhase = 'hostToDevice' | 'forward' | 'loss' | 'backward' | 'optimizer';
const PER_PIECE: readonly StepPhase[] = ['hostToDevice', 'forward', 'loss', 'backward'];

interface ProfileState {
  readonly activeProfile?: { readonly kernels: readonly unknown[] };
}

/**
 * Which phase the j-th timed interval of a step is. The trainer times each phase as a (start, end) pair of clock
 * reads: upload, forward, loss, backward for each micro-batch, then an optional extra backward interval (anomaly
 * check), then the optimiser.
 */
export const phaseOfInterval = (j: number, intervals: number): StepPhase => {
  const pieces = Math.max(1, Math.floor((intervals - 1) / 4));
  if (j < pieces * 4) return PER_PIECE[j % 4]!;
  return j === intervals - 1 ? 'optimizer' : 'backward';
};

/**
 * Profiles one step with `tf.profile` and attributes each kernel to the phase whose timed interval it ran in
 * (kernels between two intervals count toward the next). Live tensors are read at the end of each interval;
 * `peakBytes` is the most tensor bytes alive at once during the step (tfjs's own count).
 */
export const profileStep = async <T>(
  batch: number,
  clock: MonotonicClock,
  run: (clock: MonotonicClock) => Promise<T>,
): Promise<{ result: T; phases: PhaseKernels[]; peakBytes: number }> => {
  const marks: number[] = [];
  const live: number[] = [];
  const state = (): ProfileState => (tf.engine() as unknown as { state: ProfileState }).state;
  const marking: MonotonicClock = {
    now: () => {
      marks.push(state().activeProfile?.kernels.length ?? 0);
      live.push(tf.memory().numTensors);
      return clock.now();
    },
  };
  let result: T | undefined;
  const info = await tf.profile(async () => {
    result = await run(marking);
    return [];
  });
  // tfjs records a custom-gradient forward as one more "kernel" named after its scope ('unnamed scope', an op's
  // scope), timed around the registered kernels it ran, which it records too: only registered kernels count, so each
  // millisecond is counted once. The records stay in place (null) for the interval marks, which index them.
  const backend = tf.getBackend();
  const times = await Promise.all(
    info.kernels.map(async (k) =>
      tf.getKernel(k.name, backend) === undefined ? null : { name: k.name, ms: Number(await k.kernelTimeMs) || 0 },
    ),
  );
  const intervals = Math.floor(marks.length / 2);
  const phases: PhaseKernels[] = [];
  for (let j = 0; j < intervals; j++) {
    const from = j === 0 ? 0 : marks[2 * j - 1]!;
    const to = j === intervals - 1 ? times.length : marks[2 * j + 1]!;
    phases.push({
      batch,
      phase: phaseOfInterval(j, intervals),
      kernels: times.slice(from, to).filter((k) => k !== null),
      liveTensors: live[2 * j + 1] ?? tf.memory().numTensors,
    });
  }
  return { result: result as T, phases, peakBytes: info.peakBytes };
};
