import type { PhaseTimes } from '../timing/phases';
import type { TuneCandidate } from './tune-candidates';

/**
 * Legs of a tune: a leg trains `minMs` to `maxMs`; every change needs `perSide` legs a side (A B…B A), and winners
 * are verified in `verify` more (A C C A).
 * @public
 */
export const TUNE_LEGS = { minMs: 3_000, maxMs: 20_000, perSide: 2, verify: 4 } as const;

/** What the probe run measured that the plan needs. @public */
export interface TuneProbe {
  /** the steady batches' share of wall time per phase */
  readonly shares: PhaseTimes;
  /** the backend threads the probe ran */
  readonly threads: number;
  /** what a leg costs besides its training batches (backend switch, loader and trainer start-up) */
  readonly overheadMs: number;
}

/** A candidate left out for the budget, with why. @public */
export interface TuneNotTried {
  readonly candidate: TuneCandidate;
  readonly why: string;
}

/** Which changes the time left measures, in which order, and each leg's length. @public */
export interface TunePlan {
  readonly measure: readonly TuneCandidate[];
  readonly notTried: readonly TuneNotTried[];
  /** training time of each leg */
  readonly legMs: number;
  /** a leg with its start-up */
  readonly legCostMs: number;
}

const COMPUTE = ['forward', 'loss', 'backward', 'optimizer'] as const;

/**
 * The share of the probe's batch time a change acts on, as much as it could remove: more threads the compute phases
 * in proportion (t → n threads: 1 − t/n of them), the loader settings the wait for data, pinned buffers and device
 * prefetch the host-to-device copies. Null where the probe cannot tell (another backend, a change to the training, a
 * measurement change).
 * @public
 */
export const expectedEffect = (c: TuneCandidate, probe: Pick<TuneProbe, 'shares' | 'threads'>): number | null => {
  const s = probe.shares;
  switch (c.flag) {
    case '--threads': {
      const n = Number(c.value);
      return n > probe.threads ? COMPUTE.reduce((sum, p) => sum + s[p], 0) * (1 - probe.threads / n) : 0;
    }
    case '--dataloader-workers':
    case '--prefetch-factor':
    case '--streaming':
    case '--input-cache-mode':
      return s.dataWait;
    case '--pin-memory':
    case '--device-prefetch':
      return s.hostToDevice;
    default:
      return null;
  }
};

/** Changes with the most to gain first, then those the probe cannot judge, then those with nothing to act on. */
const byExpectedEffect = (candidates: readonly TuneCandidate[], probe: TuneProbe) => {
  const rank = (e: number | null): number => (e === null ? 1 : e > 0 ? 0 : 2);
  return candidates
    .map((candidate, at) => ({ candidate, at, effect: expectedEffect(candidate, probe) }))
    .sort((x, y) => rank(x.effect) - rank(y.effect) || (y.effect ?? 0) - (x.effect ?? 0) || x.at - y.at);
};

const legsFor = (changes: number): number => (changes === 0 ? 0 : TUNE_LEGS.perSide * (changes + 1) + TUNE_LEGS.verify);
const clamp = (x: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, x));
const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
const share = (x: number): string => `${(x * 100).toFixed(1)} %`;

/**
 * The legs the time left allows: every candidate when each can have two legs a side of at least the shortest leg,
 * and the verification after; otherwise the most that fit, those with the largest expected effect first, and the rest
 * named as not tried. Legs as long as the time allows, up to the longest.
 * @public
 */
export const planTuneLegs = (candidates: readonly TuneCandidate[], probe: TuneProbe, remainingMs: number): TunePlan => {
  const shortest = TUNE_LEGS.minMs + probe.overheadMs;
  const fit = (changes: number): boolean => legsFor(changes) * shortest <= remainingMs;
  let k = candidates.length;
  while (k > 0 && !fit(k)) k--;
  const ranked = k < candidates.length ? byExpectedEffect(candidates, probe) : null;
  const measure = ranked ? ranked.slice(0, k).map((r) => r.candidate) : candidates;
  const legMs = k === 0 ? 0 : clamp(remainingMs / legsFor(k) - probe.overheadMs, TUNE_LEGS.minMs, TUNE_LEGS.maxMs);
  const notTried = (ranked ?? []).slice(k).map(({ candidate, effect }) => ({
    candidate,
    why:
      `${seconds(remainingMs)} were left after the probe and a leg costs ${seconds(shortest)} (${seconds(TUNE_LEGS.minMs)} ` +
      `of training, ${seconds(probe.overheadMs)} to start): ${k} of ${candidates.length} change(s) fit at ` +
      `${TUNE_LEGS.perSide} legs a side with the verification, those with the most to gain first; this one ` +
      (effect === null
        ? 'has no share of the probe to judge it by'
        : `acts on ${share(effect)} of the probe's batch time`),
  }));
  return { measure, notTried, legMs, legCostMs: legMs + probe.overheadMs };
};
