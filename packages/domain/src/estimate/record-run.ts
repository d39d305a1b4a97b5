import { assessRun, type RunSeries } from './run-assessment';
import { emptyWander, measureWander, mergeWander } from './machine-wander';
import { emptyFall, FALL_CUTS, FALL_HORIZON, mergeFall } from './residual-fall';
import type { MachineProfile } from './machine-profile';

const mean = (xs: readonly number[]): number => xs.reduce((s, x) => s + x, 0) / xs.length;
const slice = (s: RunSeries, from: number, to: number): RunSeries => ({
  wallMs: s.wallMs.slice(from, to),
  cpu: s.cpu.slice(from, to),
  disturbed: s.disturbed.slice(from, to),
  ...(s.opens ? { opens: s.opens.slice(from, to) } : {}),
});

/**
 * A finished run's fall after each look length it is long enough for (the rest at least `FALL_HORIZON` times the
 * look): 1 − the rest's mean batch time ÷ the steady mean the estimator itself takes from the look. File boundaries
 * are left out of the rest (the estimator counts them apart), and batches other processes disturbed while at least
 * half of it is quiet; a look the estimator calls
 * disturbed, or with too few steady batches, measures nothing.
 * @public
 */
export const measureFall = (s: RunSeries, minWarmup: number): Map<number, number> => {
  const n = s.wallMs.length;
  const falls = new Map<number, number>();
  for (const cut of FALL_CUTS) {
    if (n < cut * (1 + FALL_HORIZON)) break;
    const a = assessRun(slice(s, 0, cut), { minWarmup, batchesPerEpoch: n, runToRun: 0, residualFall: 0 });
    if (a.disturbed || a.used < 8 || !(a.meanMs > 0)) continue;
    // file boundaries are counted on their own (boundaryStall), so the fall is measured without them
    const rest = slice(s, cut, n);
    const compute = rest.wallMs.filter((_, i) => !rest.opens?.[i]);
    const quiet = rest.wallMs.filter((_, i) => !rest.disturbed[i] && !rest.opens?.[i]);
    falls.set(cut, 1 - mean(quiet.length >= compute.length / 2 ? quiet : compute) / a.meanMs);
  }
  return falls;
};

/**
 * The record after a finished run, or null when the run was too short to measure either its wander or any fall (the
 * record stays as it was). What the command saves after each run, and what replays of kept runs rebuild.
 * @public
 */
export const recordRun = (
  kept: MachineProfile | null,
  run: { readonly series: RunSeries; readonly minWarmup: number; readonly steadyStart: number },
): MachineProfile | null => {
  const wander = measureWander(run.series.wallMs.slice(run.steadyStart));
  const falls = measureFall(run.series, run.minWarmup);
  const measured = wander.windows.some((w) => w.count > 0);
  if (!measured && falls.size === 0) return null;
  // each part decays only when this run adds to it
  return {
    version: 2,
    wander: measured ? mergeWander(kept?.wander ?? null, wander) : (kept?.wander ?? emptyWander()),
    fall: falls.size ? mergeFall(kept?.fall ?? null, falls) : (kept?.fall ?? emptyFall()),
  };
};
