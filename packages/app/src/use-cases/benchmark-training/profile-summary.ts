import type { PhaseKernels, ProfileSummary } from '@maou/bench-domain';

type Totals = ProfileSummary['by_kernel'];

const totals = (groups: readonly PhaseKernels[]): Totals => {
  const m = new Map<string, { calls: number; ms: number }>();
  for (const k of groups.flatMap((g) => g.kernels)) {
    const t = m.get(k.name) ?? { calls: 0, ms: 0 };
    m.set(k.name, { calls: t.calls + 1, ms: t.ms + k.ms });
  }
  return [...m]
    .map(([kernel, v]) => ({ kernel, calls: v.calls, total_ms: v.ms }))
    .sort((a, b) => b.total_ms - a.total_ms);
};

/** Kernel times by kernel and by phase, and the live tensors at the end of each phase of the last profiled batch. */
export const summarizeProfile = (groups: readonly PhaseKernels[]): ProfileSummary => {
  const phases = [...new Set(groups.map((g) => g.phase))];
  const lastBatch = Math.max(...groups.map((g) => g.batch));
  return {
    by_kernel: totals(groups),
    by_phase: Object.fromEntries(phases.map((p) => [p, totals(groups.filter((g) => g.phase === p))])),
    tensors_by_phase: Object.fromEntries(
      groups.filter((g) => g.batch === lastBatch).map((g) => [g.phase, g.liveTensors ?? Number.NaN]),
    ),
    trace_path: null,
  };
};
