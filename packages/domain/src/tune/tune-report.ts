import type { EpochEstimate } from '../report/benchmark-report';
import type { TuneCandidate, TuneChange, TuneSkipped } from './tune-candidates';
import type { TuneComparison } from './tune-comparison';

/**
 * One candidate as measured: its gain over the baseline in the same run, or why it could not run (`failed`) or was not
 * tried (`not tried`: the budget did not fit it; verdict `not tried: budget`).
 * @public
 */
export interface TuneChangeResult extends TuneCandidate {
  readonly status: 'measured' | 'failed' | 'not tried';
  /** samples/s ÷ the baseline's − 1; null when it failed or was not tried */
  readonly gain: number | null;
  readonly interval: readonly [number, number | null] | null;
  /** measurably faster (speed, training), or confirmed (measurement: the steady start fell inside the warm-up) */
  readonly significant: boolean;
  readonly verdict: string;
  readonly wander_band: number | null;
  readonly legs: { readonly baseline: number; readonly candidate: number };
  /** why it failed (the run's error) or was not tried */
  readonly reason?: string;
}

/** A side of the answer: its speed over its legs, and the epoch its median leg predicted. @public */
export interface TuneSide {
  readonly samples_per_second: number;
  readonly epoch: Pick<EpochEstimate, 'predicted_ms' | 'predicted_ms_ci95' | 'half_width_fraction'> | null;
  readonly legs: number;
}

/** The payload of `benchmark-tune`. @public */
export interface TuneReport {
  readonly schema_version: 1;
  /** which report this is (`command` holds the command line it hands back) */
  readonly kind: 'benchmark-tune';
  readonly created_at: string;
  readonly budget_s: number;
  readonly elapsed_s: number;
  /** what one leg cost, start-up included, as planned from the probe; null when no leg was planned */
  readonly leg_s: number | null;
  readonly baseline: TuneSide;
  /** the configuration the command line reproduces; the baseline itself when nothing was verified */
  readonly final: TuneSide & {
    readonly changes: readonly TuneChange[];
    /** the combination against the baseline, interleaved again; null when there was nothing to combine */
    readonly verification: (Omit<TuneComparison, 'comparison'> & { readonly p_value: number }) | null;
  };
  readonly changes: readonly TuneChangeResult[];
  readonly skipped: readonly TuneSkipped[];
  /** `maou utility benchmark-training …` with the final configuration */
  readonly command: string;
  readonly environment: { readonly backend: string; readonly threads: number; readonly cpus: number };
  readonly notes: readonly string[];
}

/**
 * The changes to combine: per flag the measurably fastest value (a training change only when it was tried, i.e.
 * allowed), and every confirmed measurement change.
 * @public
 */
export const tuneWinners = (results: readonly TuneChangeResult[]): TuneChange[] => {
  const best = new Map<string, TuneChangeResult>();
  for (const r of results) {
    if (r.status !== 'measured' || !r.significant) continue;
    const held = best.get(r.flag);
    if (!held || (r.gain ?? 0) > (held.gain ?? 0)) best.set(r.flag, r);
  }
  return [...best.values()].map(({ flag, value }) => ({ flag, value }));
};

/** A gain as the answer writes it: `+12.3 %`, `open` for an open end. @public */
export const formatGain = (x: number | null): string =>
  x === null || !Number.isFinite(x) ? 'open' : `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)} %`;

/** A gain's interval as the answer writes it: `-5.0 % … +20.1 %`, `-` when there is none. @public */
export const formatGainInterval = (i: readonly [number, number | null] | null): string =>
  i ? `${formatGain(i[0])} … ${formatGain(i[1])}` : '-';

/** The columns of the changes table, the same in the summary and the HTML report. @public */
export const TUNE_CHANGE_COLUMNS = ['change', 'kind', 'gain', '95 % interval', 'legs A/B', 'verdict'] as const;

/** One change's cells under {@link TUNE_CHANGE_COLUMNS}. @public */
export const tuneChangeCells = (c: TuneChangeResult): string[] => [
  `${c.flag} ${c.value}`,
  c.kind === 'training' ? 'alters training' : c.kind,
  c.gain === null ? '-' : formatGain(c.gain),
  formatGainInterval(c.interval),
  `${c.legs.baseline}/${c.legs.candidate}`,
  c.verdict,
];
