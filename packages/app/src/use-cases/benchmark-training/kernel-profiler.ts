import * as tf from '@tensorflow/tfjs-core';
import type { PhaseKernels } from '@maou/bench-domain';
import type { ClockPort } from '../../ports/clock.port';

const STEP_PHASES = ['hostToDevice', 'forward', 'loss', 'backward', 'optimizer'] as const;

interface ProfileState {
  readonly activeProfile?: { readonly kernels: readonly unknown[] };
}

/**
 * Profiles one step with `tf.profile` and splits its kernels into phases. The trainer reads the clock at each phase
 * boundary, in phase order, so the kernel count seen at each clock read marks where a phase ends.
 */
export const profileStep = async <T>(batch: number, clock: ClockPort, run: (clock: ClockPort) => Promise<T>): Promise<{ result: T; phases: PhaseKernels[] }> => {
  const marks: number[] = [];
  const live: number[] = [];
  const state = (): ProfileState => (tf.engine() as unknown as { state: ProfileState }).state;
  const marking: ClockPort = {
    now: () => {
      marks.push(state().activeProfile?.kernels.length ?? 0);
      live.push(tf.memory().numTensors);
      return clock.now();
    },
    wallTime: () => clock.wallTime(),
  };
  let result: T | undefined;
  const info = await tf.profile(async () => {
    result = await run(marking);
    return [];
  });
  const times = await Promise.all(info.kernels.map(async (k) => ({ name: k.name, ms: Number(await k.kernelTimeMs) || 0 })));
  // The first read starts the step; each following read closes one phase. Extra reads fall into the last phase.
  const bounds = marks.slice(1, STEP_PHASES.length + 1);
  const phases = STEP_PHASES.map((phase, i) => ({
    batch, phase, liveTensors: live[i + 1] ?? tf.memory().numTensors,
    kernels: times.slice(i === 0 ? 0 : bounds[i - 1] ?? times.length, i === STEP_PHASES.length - 1 ? times.length : bounds[i] ?? times.length),
  }));
  return { result: result as T, phases };
};
