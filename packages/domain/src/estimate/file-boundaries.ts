import type { FileOpen } from '../data/host-batch';
import type { BatchCpu } from '../timing/contention';

/** What the loader says of a pass's file boundaries (streaming only). @public */
export interface FileBoundaryPlan {
  /** file reads a full pass makes: one per file, at Stage 2 one per group of up to 10 */
  readonly readsPerEpoch: number;
  /** batches ready for the consumer when a producer starts its next read (prefetch × workers, + device prefetch) */
  readonly leadBatches: number;
  /** the reads run on loader threads beside the training step, sharing the cores with it (false: the main thread) */
  readonly besideStep: boolean;
}

/** The wait the boundaries still ahead are counted with. @public */
export interface BoundaryStall {
  readonly plan: FileBoundaryPlan;
  /** reads made so far, the first ones (warm-up) included */
  readonly seen: number;
  readonly ahead: number;
  /** the wait counted for each read ahead */
  readonly stallMs: number;
  /**
   * 'observed': what the boundaries among the steady batches cost over the steady mean; 'read-time': none was
   * crossed yet, so the producer's own read time less what the loader held ready
   */
  readonly source: 'observed' | 'read-time';
  /** boundaries among the steady batches */
  readonly observed: number;
  /** what the producers took per read: the reads made while steps ran, or else those made before the first step */
  readonly readMs: number;
  /** how much slower a read runs beside the step than alone: the step's busy threads and the reader on the cores */
  readonly slowdown: number;
}

const mean = (xs: readonly number[]): number => xs.reduce((s, x) => s + x, 0) / xs.length;

/** The parts of a run's series the boundaries are judged from. */
interface BoundarySeries {
  readonly wallMs: readonly number[];
  readonly cpu: readonly (BatchCpu | undefined)[];
  readonly opens?: readonly (FileOpen | undefined)[];
}

/** Steady batches that opened a file: a wait the steady mean must not carry, counted per boundary instead. @public */
export const isBoundary = (opens: readonly (FileOpen | undefined)[] | undefined, i: number, steadyStart: number) =>
  i >= steadyStart && opens?.[i] !== undefined;

/**
 * How much slower a read beside the step runs than one made before any step: the step's busy threads (its CPU time
 * over its wall time on the steady batches) and the reader share the cores. 1 where the counters are missing.
 */
const readSlowdown = (s: BoundarySeries, steady: readonly number[]): number => {
  const measured = steady.filter((i) => s.cpu[i] !== undefined);
  const cores = measured.length ? s.cpu[measured[0]!]!.cores : 0;
  if (!(cores > 0)) return 1;
  const wall = measured.reduce((t, i) => t + s.wallMs[i]!, 0);
  const busy = measured.reduce((t, i) => t + s.cpu[i]!.processMs, 0) / wall;
  return Math.max(1, (busy + 1) / cores);
};

/**
 * The wait of each file boundary still ahead. Where the steady batches crossed some, their mean cost over the steady
 * mean; else the producers' read time, slowed by sharing the cores with the step, less the time the consumer takes
 * for the batches ready (`leadBatches`). Session 11–12 epochs (one worker, prefetch 2) lost 53–707 ms at each
 * boundary, 0.6–2.3 % of the epoch, and a look shorter than a file sees none (docs/epoch-estimate.md, session 13).
 * Null: no plan, or no read seen yet.
 * @public
 */
export const boundaryStall = (
  s: BoundarySeries,
  steadyStart: number,
  steadyMeanMs: number,
  plan: FileBoundaryPlan | null | undefined,
): BoundaryStall | null => {
  const opens = s.opens;
  if (!plan || !opens) return null;
  const at = opens.flatMap((o, i) => (o ? [i] : []));
  if (at.length === 0) return null;
  const steady = s.wallMs.flatMap((_, i) => (i >= steadyStart && !opens[i] ? [i] : []));
  const crossed = at.filter((i) => i >= steadyStart).map((i) => s.wallMs[i]! - steadyMeanMs);
  // reads made while steps ran, once there are any; else those made before the first step, slowed as they would be
  const beside = at.filter((i) => i > plan.leadBatches);
  const reads = (beside.length ? beside : at).map((i) => opens[i]!.readMs);
  const slowdown = plan.besideStep && !beside.length ? readSlowdown(s, steady) : 1;
  const readMs = mean(reads);
  const stallMs = Math.max(0, crossed.length ? mean(crossed) : readMs * slowdown - plan.leadBatches * steadyMeanMs);
  return {
    plan,
    seen: at.length,
    ahead: Math.max(0, plan.readsPerEpoch - at.length),
    stallMs,
    source: crossed.length ? 'observed' : 'read-time',
    observed: crossed.length,
    readMs,
    slowdown,
  };
};
