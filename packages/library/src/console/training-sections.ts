import { PHASES, type BenchmarkTrainingReport, type Phase, type SeriesSummary } from '@maou/bench-domain';
import { formatMs as ms, labelledRow as row } from './console-text';

type Report = BenchmarkTrainingReport;

/** A duration in the unit that reads best: ms, min or h. */
export const dur = (x: number): string =>
  x >= 3_600_000 ? `${(x / 3_600_000).toFixed(2)} h` : x >= 60_000 ? `${(x / 60_000).toFixed(1)} min` : ms(x);

// An interval of a positive quantity is shown from 0 at least; a wide one says how few batches it rests on.
/** A batch-time series: mean, median, tail and interval. */
export const seriesText = (s: SeriesSummary): string =>
  `${ms(s.mean)} mean, ${ms(s.median)} median, p90 ${ms(s.p90)}, p99 ${ms(s.p99)}, 95% CI ${ms(Math.max(0, s.ci95[0]))}–${ms(s.ci95[1])} (n=${s.n})`;

/** Each phase's mean time and share, under a heading. */
export const phaseLines = (
  heading: string,
  p: {
    readonly phase_ms: Readonly<Record<Phase, SeriesSummary>>;
    readonly phase_share: Readonly<Record<Phase, number>>;
  },
): string[] => [
  heading,
  ...PHASES.map((x) =>
    row(`    ${x}`, `${ms(p.phase_ms[x].mean).padStart(10)}  ${(p.phase_share[x] * 100).toFixed(1).padStart(5)} %`),
  ),
];

/** The validation pass's figures, or why there was none. */
export const validationLines = (r: Report): string[] => {
  const v = r.validation_metrics;
  if (!v)
    return r.null_reasons.validation_metrics
      ? ['', row('Validation', `skipped: ${r.null_reasons.validation_metrics}`)]
      : [];
  return [
    '',
    row('Validation', `${v.batches} batches, ${v.samples_per_second.toFixed(1)} samples/s, loss ${v.loss.toFixed(4)}`),
    ...Object.entries(v.metrics).map(([k, x]) => row(`    ${k}`, x.toFixed(4))),
    ...phaseLines('  Where the validation time goes', v),
  ];
};

/** The limits the run found and each resource decision with its origin and reason. */
export const resourceLimitLines = (l: Report['resource_limits']): string[] =>
  l
    ? [
        '',
        row(
          'Resource limits',
          `cgroup ${l.cgroup}, ${l.cpu_cores} usable core(s) (affinity ${l.affinity_cpus}, quota ${l.cpu_quota_cores ?? 'none'}), ${(l.memory_bytes / 2 ** 30).toFixed(1)} GiB memory`,
        ),
        ...l.decisions.map((d) => row(`    ${d.setting}`, `${d.value ?? 'no cap'} (${d.origin}: ${d.reason})`)),
      ]
    : [];

/** A sampled (cloud) source's transfer figures. */
export const ioLines = (r: Report): string[] => {
  if (!r.io || r.config.source_sampled !== true) return [];
  const io = r.io as {
    source?: string;
    objects?: number;
    bytes?: number;
    megabytesPerSecond?: number | null;
    timeToFirstByteMs?: number | null;
    retries?: number;
    cacheHits?: number;
  };
  return [
    '',
    row(
      `I/O (${io.source})`,
      `${io.objects} objects, ${((io.bytes ?? 0) / 1e6).toFixed(1)} MB, ${io.megabytesPerSecond == null ? '–' : io.megabytesPerSecond.toFixed(0)} MB/s, first byte ${io.timeToFirstByteMs == null ? '–' : ms(io.timeToFirstByteMs)}, ${io.retries} retries, ${io.cacheHits} cache hits`,
    ),
  ];
};

/** The full dataset's epoch, scaled from a sampled run. */
export const estimationLines = (e: Report['estimation']): string[] =>
  e ? ['', row('Full dataset (from sample)', `${dur(e.full_epoch_ms)} — ${e.method}`)] : [];

/** CPU, memory and GPU use while monitoring was on. */
export const resourceLines = (res: Report['resources']): string[] =>
  res
    ? [
        '',
        row('CPU', `${res.cpu_percent.mean.toFixed(0)} % mean, ${res.cpu_percent.peak.toFixed(0)} % peak`),
        row('RSS', `${(res.rss_bytes.peak / 2 ** 20).toFixed(0)} MiB peak`),
        ...(res.gpu_util_percent
          ? [
              row(
                'GPU',
                `${res.gpu_util_percent.mean.toFixed(0)} % mean, ${res.gpu_util_percent.peak.toFixed(0)} % peak`,
              ),
            ]
          : []),
      ]
    : [];

/** The kernels that took the most time in the profiled batches. */
export const profileLines = (p: Report['profile']): string[] =>
  p
    ? [
        '',
        '  Top kernels',
        ...p.by_kernel.slice(0, 8).map((k) => row(`    ${k.kernel}`, `${ms(k.total_ms)} in ${k.calls} calls`)),
      ]
    : [];
