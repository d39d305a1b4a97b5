// Does a short look predict the epoch? Runs the built `maou` on freshly generated data (new seeds every run): once as
// a user would (a `--max-batches` of 1–5 % of the epoch, or the default run where the stopping rule decides), once with
// `--full-epoch` on the same data, and compares the short run's prediction and interval with the full run's actual
// time, beside maou's own formula from the same short run (mean batch time after `--warmup-batches` × batches per
// epoch, over the batches maou would have run). `--matrix` does this over what users run (issue 30): epochs of
// 2,000–20,000 batches, streaming 8–40 files, S3 (a local s3rver, each run with a cold download cache), Stages 1, 2
// and 3, both presets, batch 32–1,024; most rows quiet, some with a busy-looping process beside the short run.
// It prints, for the quiet rows, coverage, median and worst |error| for ours and maou's formula, and whether the issue's
// bar is met (coverage >= 95 %, median |error| <= 3 % and below maou's, worst <= 10 %); for default runs, whether each
// answered within its budget at the target or said why not. `--only 4,1` runs those rows, in that order; `--keep DIR`
// keeps every report (case-K-short.json, case-K-full.json, case-K-full-2.json, …) for `pnpm bench:epoch:replay`.
// `--full-runs N` (default 1) times the full epoch N times, after the short run: the truth is their mean, and each row
// prints their spread (slowest ÷ fastest − 1), the part of the error no estimator can remove.
// The runs keep this machine's record (the wander behind the run-to-run term, and the fall) in MAOU_BENCH_CACHE: a fresh folder per invocation
// unless the variable is set, so the first rows start from the assumed spread and later rows learn from earlier ones;
// the `r2r` column is the term each short run used (@ the window it came from), `fall` the residual fall its point
// counted (@ the look length, in batches, this machine's record measured it after; none: the assumed constant), and
// `files` the streaming file boundaries its point counted: boundaries ahead × the wait of each (o: from boundaries
// the look crossed, r: from the loader's read time) and, beside it, what the full run's boundaries cost on average.
// `drift` is the short run's quiet steady batches against the full runs' same batches: the machine's own speed change
// between the two processes, part of every row's error and invisible to the short run.
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
// The testkit's loopback S3 (s3rver) and its flags: one way to serve S3 to the binary, shared with the e2e specs.
import { S3RVER_ENV, s3InputFlags, startS3rverWith } from '@maou/bench-testkit/sources';
import { quantileSorted } from '@maou/bench-domain';

/** The built binary, run as users run it. */
const MAOU_BIN = join(__dirname, '..', 'packages', 'cli', 'dist', 'main.js');

const arg = (name: string, fallback: string): string => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1]! : fallback;
};
const root = mkdtempSync(join(tmpdir(), 'maou-epoch-'));
const machineRecord = process.env.MAOU_BENCH_CACHE ?? join(root, 'cache');
const FULL_RUNS = Math.max(1, Number(arg('full-runs', '1')));
const BUCKET = 'maou-epoch';

interface Case {
  readonly stage: 1 | 2 | 3;
  readonly preset: 'lite' | 'resnet';
  readonly batch: number;
  /** training batches per epoch */
  readonly epoch: number;
  readonly files: number;
  readonly loader: 'map' | 'stream' | 's3';
  /** `--max-batches` as a share of the epoch (at least 20 batches); null: the default run, no cap typed */
  readonly look: number | null;
  readonly load: boolean;
}
const c = (
  stage: Case['stage'],
  preset: Case['preset'],
  batch: number,
  epoch: number,
  files: number,
  loader: Case['loader'],
  look: number | null,
  load = false,
): Case => ({ stage, preset, batch, epoch, files, loader, look, load });

// Interleaved so that a run cut short still has a mix. A row's full epoch takes about samples × 0.5–1 ms (lite) or
// × 2.5–5.5 ms (resnet) on the quiet 2-core VM, so the matrix is ~100 min there (row 11 alone ~11 min). Large
// batches and most resnet rows keep 500–1,000-batch epochs: 2,000 batches of 1,024 would be 17 minutes a row.
const MATRIX: Case[] = [
  c(3, 'lite', 32, 2000, 4, 'map', 0.05),
  c(3, 'lite', 64, 2000, 16, 'stream', 0.02),
  c(3, 'lite', 128, 2000, 8, 's3', 0.05),
  c(3, 'resnet', 32, 2000, 8, 'stream', 0.01),
  c(3, 'lite', 32, 2000, 8, 'stream', null),
  c(1, 'lite', 256, 2000, 8, 'stream', 0.02),
  c(3, 'lite', 64, 2000, 4, 'map', 0.02, true),
  c(2, 'lite', 128, 2000, 8, 'stream', 0.05),
  c(3, 'lite', 1024, 500, 8, 'stream', 0.05),
  c(3, 'resnet', 64, 2000, 4, 'map', null),
  c(3, 'lite', 32, 20000, 40, 'stream', 0.01),
  c(3, 'lite', 256, 1000, 8, 's3', null),
  c(2, 'resnet', 128, 1000, 8, 'stream', 0.05),
  c(3, 'lite', 128, 2000, 16, 'stream', 0.01, true),
  c(1, 'resnet', 64, 1000, 8, 'map', 0.02),
  c(3, 'lite', 512, 1000, 16, 'stream', 0.03),
  c(3, 'lite', 96, 4000, 40, 'stream', 0.01),
  c(3, 'resnet', 32, 1000, 8, 's3', 0.05),
  c(2, 'lite', 32, 4000, 8, 'map', 0.01),
  c(3, 'lite', 48, 3000, 24, 'stream', 0.02),
  c(3, 'lite', 64, 2000, 8, 's3', 0.02, true),
  c(1, 'lite', 64, 2000, 4, 'map', null),
  c(3, 'resnet', 256, 500, 8, 'stream', 0.05),
  c(3, 'lite', 192, 2000, 12, 'stream', 0.05),
  c(3, 'lite', 32, 2000, 8, 'stream', 0.02, true),
];

/** One busy-looping process per requested core, until stopped. */
const startLoad = (cores: number): ChildProcess[] =>
  Array.from({ length: cores }, () => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
const stopLoad = (procs: ChildProcess[]): void => procs.forEach((p) => p.kill('SIGKILL'));

/** Runs the binary without blocking this process (the loopback S3 is served from here). */
const run = (args: string[], env: Record<string, string> = {}): Promise<number> =>
  new Promise((resolve, reject) => {
    const t0 = Date.now();
    const child = spawn(process.execPath, [MAOU_BIN, ...args, '--log-level', 'silent'], {
      env: { ...process.env, MAOU_BENCH_CACHE: machineRecord, ...env },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve((Date.now() - t0) / 1000) : reject(new Error(`maou ${args.join(' ')} exited ${code}`)),
    );
  });

/**
 * Fresh data for `c`: enough rows for its epoch after the validation split, in `c.files` files. Two files are
 * generated with the seed and copied round-robin into the rest: random legal games cost more to generate than to
 * train on, and the batch time does not depend on which positions repeat.
 */
const generate = async (c: Case, seed: number, dir: string): Promise<void> => {
  const positions = Math.ceil((c.epoch * c.batch) / 0.8) + c.batch;
  const perFile = Math.ceil(positions / c.files);
  const src = `${dir}-gen`;
  await run([
    'utility',
    'generate-sample-data',
    '--stage',
    String(c.stage),
    '--positions',
    String(perFile * Math.min(2, c.files)),
    '--output-dir',
    src,
    '--seed',
    String(seed),
    '--rows-per-file',
    String(perFile),
  ]);
  const made = readdirSync(src)
    .filter((f) => f.endsWith('.feather'))
    .sort();
  mkdirSync(dir, { recursive: true });
  for (let k = 0; k < c.files; k++)
    copyFileSync(join(src, made[k % made.length]!), join(dir, `part${String(k).padStart(4, '0')}.feather`));
  rmSync(src, { recursive: true, force: true });
};

interface Report {
  readonly batches: { wallMs: number; disturbed?: boolean; fileOpen?: unknown }[];
  readonly config: Record<string, unknown>;
  readonly training_metrics: { total_batches: number; steady_state_start: number };
  readonly epoch_estimate: {
    batches_per_epoch: number;
    predicted_ms: number;
    predicted_ms_ci95: [number, number];
    half_width_fraction: number;
    disturbed?: boolean;
    excluded_disturbed_batches?: number;
    trending?: boolean;
    stopping: { reason: string; time_to_answer_ms: number; target_precision: number | null };
    run_to_run?: { fraction: number; window_s: number | null };
    residual_fall?: { fraction: number; after_batches: number | null };
    file_boundaries?: { ahead: number; stall_ms: number; source: string } | null;
  };
}

interface Row {
  readonly c: Case;
  readonly load: string;
  readonly epoch: number;
  readonly batches: number;
  readonly predicted: number;
  readonly lo: number;
  readonly hi: number;
  readonly half: number;
  readonly maou: number;
  readonly actual: number;
  /** slowest ÷ fastest − 1 over the full runs (0 with one) */
  readonly spread: number;
  readonly answerS: number;
  readonly processS: number;
  readonly reason: string;
  readonly disturbed: boolean;
  readonly fullDisturbed: boolean;
  readonly trending: boolean;
  /** the run-to-run term the short run used, and the window of the machine's wander it came from (null: assumed) */
  readonly runToRun: { fraction: number; window_s: number | null } | null;
  readonly fall: { fraction: number; after_batches: number | null } | null;
  /**
   * the short run's steady batches against the full runs' same batches (same seed: the same data in the same order),
   * − 1: how much faster or slower this machine ran the look than it ran the same work minutes later, which the
   * short run cannot see (boundary batches left out; null: no quiet steady batch)
   */
  readonly drift: number | null;
  /** the boundaries ahead the short run counted, and the mean wait the full run's own boundaries had */
  readonly boundaries: { ahead: number; stallMs: number; source: string; fullStallMs: number | null } | null;
}

/** maou's formula from the batches maou would have run: mean after its warm-up × batches per epoch. */
const maouFormula = (r: Report): number => {
  const warmup = Number(r.config.warmup_batches);
  const cap = typeof r.config.max_batches === 'number' ? r.config.max_batches : r.batches.length;
  const ran = r.batches.slice(0, cap);
  const measured = ran.slice(Math.min(warmup, ran.length - 2)).map((b) => b.wallMs);
  return (measured.reduce((s, x) => s + x, 0) / measured.length) * r.epoch_estimate.batches_per_epoch;
};

/** The short run's quiet steady batches against the same batches of the full runs (see `Row.drift`). */
const machineDrift = (short: Report, fulls: readonly Report[]): number | null => {
  const same = short.batches
    .map((_, i) => i)
    .filter(
      (i) =>
        i >= short.training_metrics.steady_state_start &&
        !short.batches[i]!.disturbed &&
        fulls.every((f) => f.batches[i] !== undefined) &&
        [short, ...fulls].every((r) => !r.batches[i]!.fileOpen),
    );
  if (!same.length) return null;
  const mean = (r: Report): number => same.reduce((s, i) => s + r.batches[i]!.wallMs, 0) / same.length;
  return mean(short) / (fulls.reduce((s, f) => s + mean(f), 0) / fulls.length) - 1;
};

const runCase = async (c: Case, k: number, seed: number): Promise<Row> => {
  const dir = join(root, `case-${k}`);
  const data = join(dir, 'data');
  await generate(c, seed, data);
  let source: string[];
  let env: Record<string, string> = {};
  let server: { close(): Promise<void> } | null = null;
  // each run downloads into its own empty cache: both pay the downloads a user's first epoch pays
  let cache = (_run: string): string[] => [];
  if (c.loader === 's3') {
    const files = readdirSync(data).filter((f) => f.endsWith('.feather'));
    const s3 = await startS3rverWith(
      join(dir, 's3'),
      BUCKET,
      files.map((f) => ({ key: `runs/epoch/${f}`, file: join(data, f) })),
    );
    server = s3;
    env = S3RVER_ENV;
    source = [];
    cache = (name) => s3InputFlags(s3.endpoint, BUCKET, 'epoch', join(dir, `cache-${name}`));
  } else {
    source = [`--stage${c.stage}-data-path`, data, c.loader === 'stream' ? '--streaming' : '--no-streaming'];
  }
  const common = [
    'utility',
    'benchmark-training',
    '--stage',
    String(c.stage),
    ...source,
    '--batch-size',
    String(c.batch),
    '--model-architecture',
    c.preset,
    '--seed',
    String(seed),
  ];
  const cap = c.look === null ? [] : ['--max-batches', String(Math.max(20, Math.floor(c.look * c.epoch)))];
  const load = c.load ? startLoad(1) : [];
  let processS: number;
  try {
    processS = await run([...common, ...cache('short'), ...cap, '--output-json', join(dir, 'short.json')], env);
  } finally {
    stopLoad(load);
  }
  const fullNames = Array.from({ length: FULL_RUNS }, (_, j) => (j === 0 ? 'full' : `full-${j + 1}`));
  try {
    for (const name of fullNames)
      await run([...common, ...cache(name), '--full-epoch', '--output-json', join(dir, `${name}.json`)], env);
  } finally {
    await server?.close();
  }
  const keep = arg('keep', '');
  if (keep) {
    mkdirSync(keep, { recursive: true });
    for (const r of ['short', ...fullNames])
      copyFileSync(join(dir, `${r}.json`), join(keep, `case-${k + 1}-${r}.json`));
  }
  const short = JSON.parse(readFileSync(join(dir, 'short.json'), 'utf8')) as Report;
  const fulls = fullNames.map((name) => JSON.parse(readFileSync(join(dir, `${name}.json`), 'utf8')) as Report);
  const epochs = fulls.map((f) => f.batches.reduce((s, b) => s + b.wallMs, 0));
  rmSync(dir, { recursive: true, force: true });
  const e = short.epoch_estimate;
  return {
    c,
    load: loadAverage(),
    epoch: e.batches_per_epoch,
    batches: short.training_metrics.total_batches,
    predicted: e.predicted_ms,
    lo: e.predicted_ms_ci95[0],
    hi: e.predicted_ms_ci95[1],
    half: e.half_width_fraction,
    maou: maouFormula(short),
    actual: epochs.reduce((s, x) => s + x, 0) / epochs.length,
    spread: Math.max(...epochs) / Math.min(...epochs) - 1,
    answerS: e.stopping.time_to_answer_ms / 1000,
    processS,
    reason: e.stopping.reason,
    disturbed: Boolean(e.disturbed) || (e.excluded_disturbed_batches ?? 0) > 0,
    fullDisturbed: fulls.some((f) => f.batches.filter((b) => b.disturbed).length > f.batches.length / 10),
    trending: Boolean(e.trending),
    runToRun: e.run_to_run ?? null,
    fall: e.residual_fall ?? null,
    drift: machineDrift(short, fulls),
    boundaries: e.file_boundaries
      ? {
          ahead: e.file_boundaries.ahead,
          stallMs: e.file_boundaries.stall_ms,
          source: e.file_boundaries.source,
          // what the full run's own boundaries cost (none crossed: nothing to compare with)
          fullStallMs:
            fulls[0]!.epoch_estimate.file_boundaries?.source === 'observed'
              ? fulls[0]!.epoch_estimate.file_boundaries.stall_ms
              : null,
        }
      : null,
  };
};

const loadAverage = (): string => readFileSync('/proc/loadavg', 'utf8').split(' ')[0]!;
const pct = (x: number): string => `${(x * 100).toFixed(1)} %`;
const median = (xs: number[]): number =>
  quantileSorted(
    [...xs].sort((a, b) => a - b),
    0.5,
  );
const err = (r: Row): number => r.predicted / r.actual - 1;
const maouErr = (r: Row): number => r.maou / r.actual - 1;
const covered = (r: Row): boolean => r.actual >= r.lo && r.actual <= r.hi;

const HEADER =
  ' # st preset batch epoch files loader  look   ran predict        interval  ±half   actual spread   error in?  drift   maou   error  answer  proc stop                   r2r        fall          files load1 flags';
const printRow = (r: Row, k: number): void => {
  const s = (ms: number): string => (ms / 1000).toFixed(2);
  console.log(
    [
      String(k + 1).padStart(2),
      String(r.c.stage).padStart(2),
      r.c.preset.padEnd(6),
      `b${r.c.batch}`.padEnd(5),
      String(r.epoch).padStart(5),
      String(r.c.files).padStart(5),
      `${r.c.loader}${r.c.load ? '+load' : ''}`.padEnd(7),
      (r.c.look === null ? 'rule' : pct(r.c.look)).padStart(5),
      String(r.batches).padStart(5),
      s(r.predicted).padStart(7),
      `${s(r.lo)}–${s(r.hi)}`.padStart(15),
      pct(r.half).padStart(6),
      s(r.actual).padStart(8),
      pct(r.spread).padStart(6),
      pct(err(r)).padStart(7),
      (covered(r) ? 'yes' : 'NO').padEnd(3),
      (r.drift === null ? '—' : pct(r.drift)).padStart(6),
      s(r.maou).padStart(7),
      pct(maouErr(r)).padStart(7),
      r.answerS.toFixed(1).padStart(7),
      r.processS.toFixed(1).padStart(5),
      r.reason.padEnd(17),
      (r.runToRun
        ? `${pct(r.runToRun.fraction)}${r.runToRun.window_s ? `@${r.runToRun.window_s}s` : ''}`
        : '—'
      ).padStart(11),
      (r.fall ? `${pct(r.fall.fraction)}${r.fall.after_batches ? `@${r.fall.after_batches}` : ''}` : '—').padStart(11),
      (r.boundaries
        ? `${r.boundaries.ahead}×${r.boundaries.stallMs.toFixed(0)}${r.boundaries.source[0]}/${r.boundaries.fullStallMs?.toFixed(0) ?? '?'}`
        : '—'
      ).padStart(14),
      r.load.padStart(5),
      [r.disturbed ? 'disturbed' : '', r.fullDisturbed ? 'full-run-disturbed' : '', r.trending ? 'trending' : '']
        .filter(Boolean)
        .join(','),
    ].join(' '),
  );
};

const summarizeRows = (label: string, rows: Row[]): void => {
  if (!rows.length) return;
  const ours = rows.map((r) => Math.abs(err(r)));
  const maou = rows.map((r) => Math.abs(maouErr(r)));
  const drifts = rows.flatMap((r) => (r.drift === null ? [] : [Math.abs(r.drift)]));
  console.log(
    `${label.padEnd(40)} n=${rows.length}  coverage ${rows.filter(covered).length}/${rows.length} (${pct(rows.filter(covered).length / rows.length)})  median |error| ${pct(median(ours))} (maou's formula ${pct(median(maou))})  worst ${pct(Math.max(...ours))} (maou's ${pct(Math.max(...maou))})  median time to answer ${median(rows.map((r) => r.answerS)).toFixed(1)} s${drifts.length ? `  median |drift| ${pct(median(drifts))}` : ''}`,
  );
};

const main = async (): Promise<void> => {
  const base = Number(arg('seed', String(Date.now() % 1_000_000)));
  const only = arg('only', '');
  const cases: [Case, number][] = process.argv.includes('--matrix')
    ? only
      ? only.split(',').map((row): [Case, number] => {
          const k = Number(row) - 1;
          if (!MATRIX[k]) throw new Error(`--only ${only}: no row ${row} (rows 1-${MATRIX.length})`);
          return [MATRIX[k], k];
        })
      : MATRIX.map((m, k): [Case, number] => [m, k])
    : [
        [
          c(
            Number(arg('stage', '3')) as Case['stage'],
            arg('model-architecture', 'lite') as Case['preset'],
            Number(arg('batch-size', '64')),
            Number(arg('epoch-batches', '2000')),
            Number(arg('files', '8')),
            arg('loader', 'stream') as Case['loader'],
            arg('look', '') ? Number(arg('look', '')) : null,
            process.argv.includes('--load'),
          ),
          0,
        ],
      ];
  const loads = (): string => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  console.log(
    `seeds ${base}+k, ${cases.length} configuration(s); load average at start ${loads()}; machine record in ${machineRecord}`,
  );
  console.log(HEADER);
  const rows: Row[] = [];
  const t0 = Date.now();
  for (const [cs, k] of cases) {
    const row = await runCase(cs, k, base + k);
    rows.push(row);
    printRow(row, k);
  }
  console.log(`done in ${((Date.now() - t0) / 60000).toFixed(1)} min; load average at end ${loads()}`);
  // The benchmark alone makes a load of about the core count plus one (a replica per core, the loader, the main
  // thread): 2.0–2.65 on the 2-core VM with nothing else running (session 9). More than that is someone else.
  const busiest = Math.max(...rows.map((r) => Number(r.load)));
  if (busiest > cpus().length + 1)
    console.log(
      `LOADED: the load average reached ${busiest.toFixed(2)}, above the ~${cpus().length + 1} this benchmark makes alone; these figures say nothing about the quiet bar`,
    );
  const quiet = rows.filter((r) => !r.c.load);
  summarizeRows('all', rows);
  summarizeRows('quiet (no background load)', quiet);
  summarizeRows(
    'quiet, neither run disturbed by others',
    quiet.filter((r) => !r.disturbed && !r.fullDisturbed),
  );
  if (quiet.length) {
    const ours = quiet.map((r) => Math.abs(err(r)));
    const maou = median(quiet.map((r) => Math.abs(maouErr(r))));
    const coverage = quiet.filter(covered).length / quiet.length;
    const met = coverage >= 0.95 && median(ours) <= 0.03 && median(ours) < maou && Math.max(...ours) <= 0.1;
    console.log(
      `quiet bar (coverage >= 95 %, median |error| <= 3 % and below maou's formula, worst <= 10 %): ${met ? 'met' : 'NOT met'} (${pct(coverage)}, ${pct(median(ours))} vs ${pct(maou)}, ${pct(Math.max(...ours))})`,
    );
  }
  // Precision reached is an answer within the budget: the budget is judged at batch ends, so the batch that reaches
  // the target may end a few milliseconds past 60 s (session 10: 60.0 s at ±5.0 %).
  for (const r of rows.filter((x) => x.c.look === null))
    console.log(
      `default run, row ${MATRIX.indexOf(r.c) + 1} (${r.epoch} batches): answered after ${r.answerS.toFixed(1)} s at ±${pct(r.half)} (${r.reason})${r.half <= 0.05 && r.reason === 'precision-reached' ? '' : ': NOT within 60 s at ±5 %, the run says why in its notes'}`,
    );
  const loaded = rows.filter((r) => r.c.load);
  summarizeRows('background load during the short run', loaded);
  const failedUnderLoad = loaded.filter((r) => !covered(r) && !r.disturbed).length;
  if (loaded.length)
    console.log(
      `under load: ${loaded.length - failedUnderLoad}/${loaded.length} covered the truth or said they were disturbed`,
    );
  rmSync(root, { recursive: true, force: true });
};

main().catch((e: unknown) => {
  console.error(e);
  rmSync(root, { recursive: true, force: true });
  process.exit(1);
});
