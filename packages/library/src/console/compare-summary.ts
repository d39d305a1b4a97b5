import type { BenchmarkCompareReport } from '@maou/bench-domain';

const VERDICT = {
  'b-faster': 'B is faster',
  'b-slower': 'B is slower',
  'no-significant-difference': 'no difference beyond noise',
} as const;

/** The human summary of a comparison. @public */
export const renderCompareSummary = (r: BenchmarkCompareReport): string => {
  const c = r.comparison;
  const lines = [
    `A: ${r.a.path} (${r.a.label}) — ${c.a.mean.toFixed(1)} ms/batch mean over ${c.a.n} steady batches, ${r.a.samples_per_second.toFixed(1)} samples/s`,
    `B: ${r.b.path} (${r.b.label}) — ${c.b.mean.toFixed(1)} ms/batch mean over ${c.b.n} steady batches, ${r.b.samples_per_second.toFixed(1)} samples/s`,
    `Verdict: ${VERDICT[c.verdict]} (B/A batch time ${c.ratio.toFixed(3)}, 95% CI ${c.ratio_ci95[0].toFixed(3)}–${c.ratio_ci95[1].toFixed(3)}, Welch t ${c.welch_t.toFixed(2)}, df ${c.degrees_of_freedom.toFixed(1)}, p ${c.p_value.toExponential(2)})`,
    `Method: ${c.method}`,
    '',
    r.environment_diff.length ? 'Environment differences:' : 'Environment: identical',
    ...r.environment_diff.map((d) => `  ${d.key}: ${JSON.stringify(d.a)} → ${JSON.stringify(d.b)}`),
    r.config_diff.length ? 'Configuration differences:' : 'Configuration: identical',
    ...r.config_diff.map((d) => `  ${d.key}: ${JSON.stringify(d.a)} → ${JSON.stringify(d.b)}`),
  ];
  return `${lines.join('\n')}\n`;
};
