// Replays the stopping rule and the epoch estimate on full epochs already run: for each `--output-json` report of a
// `--full-epoch` run, the batches are fed to the stop watch one by one (cap max(20, 40 % of the epoch), the default
// precision and budget, as `bench:epoch --matrix` runs it), and the interval it would have printed is compared with
// the epoch's actual time. It sees no run-to-run spread (one process gives both), so it tests the estimator's
// treatment of the batch series alone, in seconds instead of the matrix's minutes.
// `--cpu-proxy` replays each batch at this process's CPU time over every core instead of its wall time, none
// disturbed: a stand-in for a quiet machine when the runs were taken on a busy one (it keeps the shape of the
// step's own transient, which other processes' load hides in wall time).
// `--looks 0.01,0.02,0.05` replays short looks at the epoch instead (cap = that share of it, at least 20 batches;
// the rule may stop sooner; `--no-rule` runs each look to its cap; a look of 1 is the default run, no cap, where the
// rule and its 60 s budget decide) and prints maou's own formula beside ours: mean batch time after
// `--warmup-batches` × batches per epoch, from the same batches (maou's default 100 for the default run).
// `--candidates` adds, per look, the error of other ways to project the same batches (ADR 0014).
// `--wander` prints instead how far the mean batch time over a window of T seconds strays from the epoch's steady mean
// (windows at 20 evenly spaced starts after the first 5 %): the machine's own drift, which no look shorter than the
// epoch can see and no estimator removes.
// `--record` takes the reports `bench:epoch --keep` kept (case-K-short.json and case-K-full*.json, any number of
// folders) and, in the order they were made, judges each short run again twice, against the mean of its full epochs:
// as on a new machine (the assumed run-to-run spread) and with the machine's wander record built from every report
// made before it (the record the command keeps in its calibration store: wander and fall), as the command would have
// with that history.
// Usage (reports may be gzipped, .json.gz): pnpm bench:epoch:replay full-1.json ... [--cap-fraction 0.4 | --looks 0.01,0.05] [--cpu-proxy] [--candidates]
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { basename, dirname } from 'node:path';
import {
  quantileSorted,
  recordRun,
  runSeries,
  type BatchTiming,
  type FileBoundaries,
  type FileBoundaryPlan,
  type MachineProfile,
} from '@maou/bench-domain';
// The use case's own stop watch: the very rule the command runs, not a copy.
import { StopWatch } from '@maou/bench-use-cases';
import { candidatePredictions } from './epoch-candidates';

const arg = (name: string, fallback: string): string => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1]! : fallback;
};
const valued = new Set(['--cap-fraction', '--looks']);
const files = process.argv.slice(2).filter((a, i, all) => /\.json(\.gz)?$/.test(a) && !valued.has(all[i - 1]!));
const looks = arg('looks', '') ? arg('looks', '').split(',').map(Number) : [Number(arg('cap-fraction', '0.4'))];
const useRule = !process.argv.includes('--no-rule');
const pct = (x: number): string => `${(x * 100).toFixed(1)} %`;
const median = (xs: readonly number[]): number =>
  quantileSorted(
    [...xs].sort((a, b) => a - b),
    0.5,
  );

/** The loader's plan of a streaming run's file reads, as its report keeps it (null: map-style, or an older report). */
const filesOf = (report: { epoch_estimate?: { file_boundaries?: FileBoundaries | null } }): FileBoundaryPlan | null => {
  const f = report.epoch_estimate?.file_boundaries;
  return f ? { readsPerEpoch: f.reads_per_epoch, leadBatches: f.lead_batches, besideStep: f.beside_step } : null;
};

const load = (file: string): { batches: BatchTiming[]; warmup: number; files: FileBoundaryPlan | null } => {
  const raw = readFileSync(file);
  const report = JSON.parse((file.endsWith('.gz') ? gunzipSync(raw) : raw).toString('utf8'));
  const timings = report.batches as BatchTiming[];
  const batches = process.argv.includes('--cpu-proxy')
    ? timings.map((b) => ({
        ...b,
        wallMs: b.cpu ? b.cpu.processMs / b.cpu.cores : b.wallMs,
        cpu: undefined,
        disturbed: false,
      }))
    : timings;
  return {
    batches,
    warmup: report.config?.warmup_batches ?? report.training_metrics?.warmup_batches ?? 10,
    files: filesOf(report),
  };
};

interface Row {
  err: number;
  maouErr: number;
  inside: boolean;
  candidates: Record<string, number>;
}

const replay = (file: string, look: number): Row => {
  const { batches, warmup, files } = load(file);
  const n = batches.length;
  const cap = Math.min(n, Math.max(20, Math.floor(look * n)));
  const watch = new StopWatch(useRule ? { targetPrecision: 0.05, timeBudgetMs: 60_000 } : null, {
    warmup,
    planned: cap,
    batchesPerEpoch: n,
    files,
  });
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
  // maou's formula over the batches maou would have run: the look's, or its default 100 where the rule decided
  const maouRan = look >= 1 ? Math.min(k, 100) : k;
  const measured = batches.slice(Math.min(warmup, maouRan - 2), maouRan).map((b) => b.wallMs);
  const maou = (measured.reduce((s, x) => s + x, 0) / measured.length) * n;
  const inside = actual >= lo && actual <= hi;
  const candidates = Object.fromEntries(
    Object.entries(candidatePredictions(batches.slice(0, k), a, n)).map(([name, ms]) => [name, ms / actual - 1]),
  );
  console.log(
    `${basename(file).padEnd(26)} ${String(k).padStart(4)}/${String(n).padEnd(5)} predict ${(a.predictedMs / 1000).toFixed(2).padStart(7)} ${`${(lo / 1000).toFixed(2)}–${(hi / 1000).toFixed(2)}`.padStart(13)} actual ${(actual / 1000).toFixed(2).padStart(7)} ${pct(err).padStart(8)} ${inside ? 'yes' : 'NO '} ±${pct(a.halfWidthFraction)}  maou ${(maou / 1000).toFixed(2).padStart(7)} ${pct(maou / actual - 1).padStart(8)}  ${epochExtras.stopping?.reason} ${a.trending ? 'trending' : ''}${a.disturbed ? ' disturbed' : ''}`,
  );
  return { err: Math.abs(err), maouErr: Math.abs(maou / actual - 1), inside, candidates };
};

const wander = (): void => {
  const spans = [2, 5, 10, 20, 40, 60];
  const devs = new Map<number, number[]>(spans.map((t) => [t, []]));
  for (const file of files) {
    const wall = load(file).batches.map((b) => b.wallMs);
    const steady = wall.slice(Math.max(30, Math.floor(wall.length / 20)));
    const mean = steady.reduce((s, x) => s + x, 0) / steady.length;
    const cum = [0];
    for (const x of steady) cum.push(cum[cum.length - 1]! + x);
    for (const t of spans)
      for (let k = 0; k < 20; k++) {
        const a = Math.floor((k * steady.length) / 20);
        let b = a + 1;
        while (b <= steady.length && cum[b]! - cum[a]! < t * 1000) b++;
        if (b > steady.length) break;
        devs.get(t)!.push(Math.abs((cum[b]! - cum[a]!) / (b - a) / mean - 1));
      }
  }
  const q = (xs: number[], p: number): number =>
    quantileSorted(
      [...xs].sort((x, y) => x - y),
      p,
    );
  console.log(`|window mean ÷ steady epoch mean − 1| over ${files.length} epochs`);
  for (const t of spans) {
    const d = devs.get(t)!;
    if (d.length)
      console.log(
        `window ${String(t).padStart(3)} s  n=${String(d.length).padStart(4)}  median ${pct(q(d, 0.5))}  p90 ${pct(q(d, 0.9))}  p95 ${pct(q(d, 0.95))}  max ${pct(Math.max(...d))}`,
      );
  }
};

/** What `--record` reads of a kept report. */
interface KeptReport {
  readonly created_at: string;
  readonly batches: BatchTiming[];
  readonly config: { warmup_batches: number };
  readonly training_metrics: { steady_state_start: number };
  readonly epoch_estimate: { batches_per_epoch: number; file_boundaries?: FileBoundaries | null };
}

/** A kept short run judged as the command would judge it with `record` (null: a machine with none). */
const judge = (report: KeptReport, n: number, record: MachineProfile | null) =>
  new StopWatch(null, {
    warmup: report.config.warmup_batches,
    planned: report.batches.length,
    batchesPerEpoch: n,
    machine: record,
    files: filesOf(report),
  }).conclude(report.batches).assessment;

const withRecord = (): void => {
  type Kept = { file: string; at: number; key: string; short: boolean; report: KeptReport };
  const kept: Kept[] = files.map((file) => {
    const report = JSON.parse(readFileSync(file, 'utf8')) as KeptReport;
    const m = /^(case-\d+)-(short|full)/.exec(basename(file));
    if (!m) throw new Error(`--record: ${file} is not a case-K-short or case-K-full report of bench:epoch --keep`);
    return {
      file,
      at: Date.parse(report.created_at),
      key: `${dirname(file)}/${m[1]}`,
      short: m[2] === 'short',
      report,
    };
  });
  kept.sort((a, b) => a.at - b.at);
  let record: MachineProfile | null = null;
  const rows: {
    err: number;
    judgedErr: number;
    plain: boolean;
    judged: boolean;
    plainHalf: number;
    judgedHalf: number;
  }[] = [];
  for (const k of kept) {
    if (k.short) {
      const fulls = kept.filter((x) => x.key === k.key && !x.short);
      if (!fulls.length) throw new Error(`--record: no full epoch kept beside ${k.file}`);
      const actual =
        fulls.reduce((s, f) => s + f.report.batches.reduce((t: number, b: BatchTiming) => t + b.wallMs, 0), 0) /
        fulls.length;
      const n = k.report.epoch_estimate.batches_per_epoch;
      const [plain, judged] = [judge(k.report, n, null), judge(k.report, n, record)];
      const inside = (a: typeof plain) => actual >= a.intervalMs[0] && actual <= a.intervalMs[1];
      const err = plain.predictedMs / actual - 1;
      const judgedErr = judged.predictedMs / actual - 1;
      rows.push({
        err: Math.abs(err),
        judgedErr: Math.abs(judgedErr),
        plain: inside(plain),
        judged: inside(judged),
        plainHalf: plain.halfWidthFraction,
        judgedHalf: judged.halfWidthFraction,
      });
      const w = judged.wander;
      const f = judged.fall;
      console.log(
        `${k.key.split('/').slice(-2).join('/').padEnd(30)} look ${(k.report.batches.length + '').padStart(5)}/${String(n).padEnd(5)} assumed ${pct(err).padStart(7)} ±${pct(plain.halfWidthFraction).padStart(6)} ${inside(plain) ? 'yes' : 'NO '}  record ${w ? `${pct(judged.basis.runToRun)}@${w.windowS}s` : 'none'} fall ${f ? `${pct(f.fraction)}@${f.afterBatches}` : 'none'} ${pct(judgedErr).padStart(7)} ±${pct(judged.halfWidthFraction).padStart(6)} ${inside(judged) ? 'yes' : 'NO '}`,
      );
    }
    const run = {
      series: runSeries(k.report.batches),
      minWarmup: k.report.config.warmup_batches,
      steadyStart: k.report.training_metrics.steady_state_start,
    };
    record = recordRun(record, run) ?? record;
  }
  console.log(
    `n=${rows.length}  median |error| assumed ${pct(median(rows.map((r) => r.err)))}, with the record ${pct(median(rows.map((r) => r.judgedErr)))}  coverage assumed ${rows.filter((r) => r.plain).length}/${rows.length}, with the record ${rows.filter((r) => r.judged).length}/${rows.length}  median ±half ${pct(median(rows.map((r) => r.plainHalf)))} → ${pct(median(rows.map((r) => r.judgedHalf)))}`,
  );
};

if (process.argv.includes('--wander')) {
  wander();
  process.exit(0);
}
if (process.argv.includes('--record')) {
  withRecord();
  process.exit(0);
}

for (const look of looks) {
  console.log(`look ${pct(look)} of each epoch (at least 20 batches)${useRule ? ', stopping rule on' : ''}`);
  const rows = files.map((f) => replay(f, look));
  const errs = rows.map((r) => r.err);
  console.log(
    `n=${rows.length}  coverage ${rows.filter((r) => r.inside).length}/${rows.length}  median |error| ${pct(median(errs))}  worst ${pct(Math.max(...errs))}  maou's formula: median |error| ${pct(median(rows.map((r) => r.maouErr)))}  worst ${pct(Math.max(...rows.map((r) => r.maouErr)))}`,
  );
  if (process.argv.includes('--candidates'))
    for (const name of Object.keys(rows[0]?.candidates ?? {})) {
      const e = rows.map((r) => r.candidates[name]!);
      console.log(
        `  candidate ${name.padEnd(28)} median error ${pct(median(e)).padStart(7)}  median |error| ${pct(median(e.map(Math.abs))).padStart(7)}  worst |error| ${pct(Math.max(...e.map(Math.abs))).padStart(7)}`,
      );
    }
}
