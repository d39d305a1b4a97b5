import {
  compareLegs,
  legOf,
  type BenchmarkTrainingReport,
  type TuneCandidate,
  type TuneChangeResult,
} from '@maou/bench-domain';

/** A candidate's legs so far, or why it stopped running them. */
export type Measured = { candidate: TuneCandidate; reports: BenchmarkTrainingReport[]; failed?: string };

/** A candidate the budget did not fit: named, with why, and nothing claimed. */
export const notTried = (candidate: TuneCandidate, why: string): TuneChangeResult => ({
  ...candidate,
  status: 'not tried',
  gain: null,
  interval: null,
  significant: false,
  verdict: 'not tried: budget',
  wander_band: null,
  legs: { baseline: 0, candidate: 0 },
  reason: why,
});

/** A candidate's verdict: speed by the comparison; a measurement change by whether every leg was steady within it. */
export const judge = (m: Measured, a: readonly BenchmarkTrainingReport[]): TuneChangeResult => {
  const legs = { baseline: a.length, candidate: m.reports.length };
  if (m.failed !== undefined || m.reports.length === 0 || a.length === 0)
    return {
      ...m.candidate,
      status: 'failed',
      gain: null,
      interval: null,
      significant: false,
      verdict: 'failed',
      wander_band: null,
      legs,
      reason: m.failed ?? 'no leg ran',
    };
  const c = compareLegs(a.map(legOf), m.reports.map(legOf));
  const base = { ...m.candidate, status: 'measured' as const, gain: c.gain, interval: c.interval };
  if (m.candidate.kind !== 'measurement')
    return { ...base, significant: c.significant, verdict: c.verdict, wander_band: c.wander_band, legs };
  const late = m.reports.filter((r) => r.training_metrics.steady_state_start > Number(m.candidate.value)).length;
  return {
    ...base,
    significant: late === 0,
    verdict:
      late === 0
        ? `steady from the warm-up on in ${m.reports.length} of ${m.reports.length} legs`
        : `steady only later in ${late} of ${m.reports.length} legs`,
    wander_band: c.wander_band,
    legs,
  };
};
