// Replays the stopping rule and the epoch estimate on full epochs already run: for each `--output-json` report of a
// `--full-epoch` run, the batches are fed to the stop watch one by one (cap max(20, 40 % of the epoch), the default
// precision and budget, as `bench:epoch --matrix` runs it), and the interval it would have printed is compared with
// the epoch's actual time. It sees no run-to-run spread (one process gives both), so it tests the estimator's
// treatment of the batch series alone, in seconds instead of the matrix's minutes.
// `--cpu-proxy` replays each batch at this process's CPU time over every core instead of its wall time, none
// disturbed: a stand-in for a quiet machine when the runs were taken on a busy one (it keeps the shape of the
// step's own transient, which other processes' load hides in wall time).
// Usage: pnpm bench:epoch:replay full-1.json full-2.json ... [--cap-fraction 0.4] [--cpu-proxy]
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { BatchTiming } from '@maou/bench-domain';
// The stop watch is the use case's own (not in app's public entry), so the bench reaches into the source: the very
// rule the command runs, not a copy.
// eslint-disable-next-line no-restricted-imports
import { StopWatch } from '../packages/app/src/use-cases/benchmark-training/stop-watch';

const arg = (name: string, fallback: string): string => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1]! : fallback;
};
const capFraction = Number(arg('cap-fraction', '0.4'));
const files = process.argv.slice(2).filter((a, i, all) => a.endsWith('.json') && all[i - 1] !== '--cap-fraction');
const pct = (x: number): string => `${(x * 100).toFixed(1)} %`;

const rows = files.map((file) => {
  const report = JSON.parse(readFileSync(file, 'utf8'));
  const raw = report.batches as BatchTiming[];
  const batches = process.argv.includes('--cpu-proxy')
    ? raw.map((b) => ({
        ...b,
        wallMs: b.cpu ? b.cpu.processMs / b.cpu.cores : b.wallMs,
        cpu: undefined,
        disturbed: false,
      }))
    : raw;
  const warmup = report.config?.warmup_batches ?? report.training_metrics?.warmup_batches ?? 5;
  const n = batches.length;
  const cap = Math.max(20, Math.floor(capFraction * n));
  const watch = new StopWatch(
    { targetPrecision: 0.05, timeBudgetMs: 60_000 },
    { warmup, planned: cap, batchesPerEpoch: n },
  );
  let k = 0;
  let elapsed = 0;
  while (k < cap) {
    elapsed += batches[k]!.wallMs;
    k++;
    if (watch.shouldStop(batches.slice(0, k), elapsed)) break;
  }
  const { assessment: a, epochExtras } = watch.conclude(batches.slice(0, k));
  const actual = batches.reduce((s, b) => s + b.wallMs, 0);
  const [lo, hi] = a.intervalMs;
  const err = a.predictedMs / actual - 1;
  const inside = actual >= lo && actual <= hi;
  console.log(
    `${basename(file).padEnd(22)} ${String(k).padStart(4)}/${String(n).padEnd(5)} predict ${(a.predictedMs / 1000).toFixed(2).padStart(7)} ${`${(lo / 1000).toFixed(2)}–${(hi / 1000).toFixed(2)}`.padStart(13)} actual ${(actual / 1000).toFixed(2).padStart(7)} ${pct(err).padStart(8)} ${inside ? 'yes' : 'NO '} ±${pct(a.halfWidthFraction)} ${epochExtras.stopping?.reason} ${a.trending ? 'trending' : ''}${a.disturbed ? ' disturbed' : ''}`,
  );
  return { err: Math.abs(err), inside };
});
const sorted = rows.map((r) => r.err).sort((x, y) => x - y);
const median = sorted.length
  ? (sorted[Math.floor((sorted.length - 1) / 2)]! + sorted[Math.ceil((sorted.length - 1) / 2)]!) / 2
  : Number.NaN;
console.log(
  `n=${rows.length}  coverage ${rows.filter((r) => r.inside).length}/${rows.length}  median |error| ${pct(median)}  worst ${pct(Math.max(...sorted))}`,
);
