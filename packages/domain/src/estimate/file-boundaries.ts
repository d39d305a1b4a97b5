import type { FileOpen } from '../data/host-batch';

/** What the loader says of a pass's file boundaries (streaming only). @public */
export interface FileBoundaryPlan {
  /** file reads a full pass makes: one per file, at Stage 2 one per group of up to 10 */
  readonly readsPerEpoch: number;
  /**
   * batches ready for the consumer when a producer starts its next read: prefetch × workers and the one whose step is
   * under way (none when the main thread reads), plus those uploaded to the device ahead
   */
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
  /** what the producers took per read so far */
  readonly readMs: number;
}

const mean = (xs: readonly number[]): number => xs.reduce((s, x) => s + x, 0) / xs.length;

/** The parts of a run's series the boundaries are judged from. */
interface BoundarySeries {
  readonly wallMs: readonly number[];
  readonly opens?: readonly (FileOpen | undefined)[];
}

/** Steady batches that opened a file: a wait the steady mean must not carry, counted per boundary instead. @public */
export const isBoundary = (opens: readonly (FileOpen | undefined)[] | undefined, i: number, steadyStart: number) =>
  i >= steadyStart && opens?.[i] !== undefined;

/**
 * The wait of each file boundary still ahead. Where the steady batches crossed some, their mean cost over the steady
 * mean; else the producers' read time less the time the consumer takes for the batches ready when a read starts
 * (`leadBatches`). The read beside the step shares the cores with it, but once the consumer waits it runs alone:
 * on session 13's streamed rows the plain difference came closest (ADR 0014). Those epochs (one
 * worker, prefetch 2) lost 57–852 ms at each boundary, 0.6–2.3 % of the epoch, and a look shorter than a file sees
 * none. Null: no plan, or no read seen yet.
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
  const reads = opens.flatMap((o) => (o ? [o.readMs] : []));
  if (reads.length === 0) return null;
  const crossed = s.wallMs.flatMap((w, i) => (isBoundary(opens, i, steadyStart) ? [w - steadyMeanMs] : []));
  const readMs = mean(reads);
  const stallMs = Math.max(0, crossed.length ? mean(crossed) : readMs - plan.leadBatches * steadyMeanMs);
  return {
    plan,
    seen: reads.length,
    ahead: Math.max(0, plan.readsPerEpoch - reads.length),
    stallMs,
    source: crossed.length ? 'observed' : 'read-time',
    observed: crossed.length,
    readMs,
  };
};
