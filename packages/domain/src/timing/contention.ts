/**
 * CPU time around one batch: this process (every thread: replicas, loader workers, main), other processes, and time
 * the hypervisor gave to other guests (steal). `cores` is how many CPUs the counters cover.
 * @public
 */
export interface BatchCpu {
  readonly processMs: number;
  readonly othersMs: number;
  readonly stealMs: number;
  readonly cores: number;
}

/** Share of the machine that other processes and steal took, above which a stretch of batches counts as disturbed. */
const DISTURBED_SHARE = 0.1;
/** Shortest stretch the shares are judged over: the system counters tick every 10 ms, one batch can be shorter. */
const WINDOW_MS = 500;

/**
 * Which batches shared the CPU with other processes. A batch is disturbed when, over a window of at least 500 ms
 * around it, other processes plus steal took more than 10 % of the machine and more than the idle time left, so
 * they took CPU this run would have used, not spare cores. Batches without counters are never flagged.
 * @public
 */
export const flagDisturbed = (wallMs: readonly number[], cpu: readonly (BatchCpu | undefined)[]): boolean[] =>
  wallMs.map((_, i) => {
    if (!cpu[i]) return false;
    let [lo, hi] = [i, i];
    let wall = wallMs[i]!;
    while (wall < WINDOW_MS && (lo > 0 || hi < wallMs.length - 1)) {
      if (lo > 0) wall += wallMs[--lo]!;
      if (hi < wallMs.length - 1) wall += wallMs[++hi]!;
    }
    const cores = cpu[i]!.cores;
    let [own, others] = [0, 0];
    for (let j = lo; j <= hi; j++) {
      const c = cpu[j];
      if (!c) continue;
      own += c.processMs;
      others += c.othersMs + c.stealMs;
    }
    const capacity = cores * wall;
    const idle = Math.max(0, capacity - own - others);
    return others > DISTURBED_SHARE * capacity && others > idle;
  });

/** What the contention counters say about a run. @public */
export interface ContentionSummary {
  /** false where the platform has no system-wide CPU counters (no /proc/stat) */
  readonly measured: boolean;
  readonly disturbed_batches: number;
  /** mean share of the machine other processes used during the run, 0–1 */
  readonly others_share: number;
  /** mean share of the machine lost to steal, 0–1 */
  readonly steal_share: number;
  /** this process's CPU time ÷ wall time over the run (2 = two cores busy) */
  readonly process_parallelism: number;
}

/** Run-wide contention figures, from the per-batch counters. @public */
export const summarizeContention = (
  wallMs: readonly number[],
  cpu: readonly (BatchCpu | undefined)[],
  disturbed: readonly boolean[],
): ContentionSummary => {
  const idx = wallMs.map((_, i) => i).filter((i) => cpu[i]);
  const wall = idx.reduce((s, i) => s + wallMs[i]!, 0);
  const capacity = idx.reduce((s, i) => s + wallMs[i]! * cpu[i]!.cores, 0);
  const sum = (f: (c: BatchCpu) => number) => idx.reduce((s, i) => s + f(cpu[i]!), 0);
  return {
    measured: idx.length > 0,
    disturbed_batches: disturbed.filter(Boolean).length,
    others_share: capacity > 0 ? sum((c) => c.othersMs) / capacity : 0,
    steal_share: capacity > 0 ? sum((c) => c.stealMs) / capacity : 0,
    process_parallelism: wall > 0 ? sum((c) => c.processMs) / wall : 0,
  };
};
