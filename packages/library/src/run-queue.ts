import { performance } from 'node:perf_hooks';

// tfjs keeps one backend, one set of kernels and one memory manager per process (tfjs-core's global engine): two runs
// at once would switch each other's backend mid-step. Runs therefore take turns, in the order they were asked for;
// each report says how long its run waited (`environment.queued_ms`). The queue lives on globalThis so that two
// copies of this package in one process (a host with its own) still share it, as they share tfjs-core's engine.
const KEY = Symbol.for('maou-bench.run-queue');
type Holder = { [KEY]?: Promise<void> };

/** Runs `work` when every run asked for before it has finished; `work` is told how long it waited, in ms. */
export const oneRunAtATime = async <T>(work: (queuedMs: number) => Promise<T>): Promise<T> => {
  const holder = globalThis as Holder;
  const asked = performance.now();
  const before = holder[KEY] ?? Promise.resolve();
  let release = (): void => undefined;
  holder[KEY] = new Promise<void>((resolve) => (release = resolve));
  await before;
  try {
    return await work(performance.now() - asked);
  } finally {
    release();
  }
};
