/**
 * `maou utility benchmark-tune` on configurations with a known better setting, and on a good one, each tuned twice
 * with fresh seeds; the printed command of a tune that changed something is run again (A/B/A/B against the baseline,
 * `benchmark-training` in fresh processes) to check that it reproduces the tuned speed.
 *
 *   pnpm bench:tune [-- --budget 240 --only threads,transform,warmup,good --runs 2 --positions 16384 --reproduce 20
 *                       --transform-us 1000]
 *
 * Cases: `threads` (--threads 1 --dataloader-workers 0: on a machine of two or more cores, more threads and a loader
 * worker should win), `transform` (--threads 1 --dataloader-workers 0 under a slow transform: a loader worker should
 * win, or map-style files held in memory, which transform each row once at the start), `warmup` (--warmup-batches 0, shorter than the steady start), `good` (the defaults; nothing may be called
 * significant that the second run does not also call significant). The CLI is the built one (`pnpm build`).
 * `transform` runs through `benchmarkTune()`: this product's records need no transform, so the testkit's stand-in
 * (`transformCostLoaders`: `--transform-us` µs of CPU per row on every shard read, in whichever thread reads it) over
 * files of one batch each makes it a cost per batch; its printed command runs without it, so it is not reproduced.
 * The load average is printed before and after each tune: other processes on the cores change what a leg measures.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { BenchmarkTrainingReport, TuneReport } from '@maou/bench-domain';
import { benchmarkTune, type BenchmarkTuneOptions } from '@maou/bench-app';
import { TRANSFORM_COST_ENV, transformCostLoaders } from '@maou/bench-testkit/loader';

const repo = path.resolve(__dirname, '..');
const cli = path.join(repo, 'packages/cli/dist/main.js');
const arg = (name: string, fallback: string): string => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? process.argv[at + 1]! : fallback;
};
const budget = arg('budget', '240');
const only = arg('only', 'threads,transform,warmup,good').split(',');
const runs = Number(arg('runs', '2'));
const reproduceS = arg('reproduce', '20');
const dir = mkdtempSync(path.join(tmpdir(), 'bench-tune-'));
const common = [
  ...['--model-architecture', 'lite', '--batch-size', '64', '--sample-positions', arg('positions', '16384')],
  ...['--sample-cache-dir', path.join(dir, 'sample')],
];
// the transform case's data: files of one batch (64 rows) each, so a transform on each read is a cost per batch
const transformData = path.join(dir, 'transform-data');
// `expect`: the flags of which one the tune must find and verify; null: nothing may be
const CASES: Record<string, { flags: string[]; expect: string[] | null; transform?: true }> = {
  threads: { flags: ['--threads', '1', '--dataloader-workers', '0'], expect: ['--threads'] },
  transform: {
    flags: ['--threads', '1', '--dataloader-workers', '0', '--stage3-data-path', transformData],
    // a worker transforms beside the step; map-style files held in memory transform each row once, at the start
    expect: ['--dataloader-workers', '--streaming'],
    transform: true,
  },
  warmup: { flags: ['--warmup-batches', '0'], expect: ['--warmup-batches'] },
  good: { flags: [], expect: null },
};

const load = (): string => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const maou = (argv: readonly string[], json: string): void => {
  const r = spawnSync(process.execPath, [cli, ...argv, '--log-level', 'warn', '--output-json', json], {
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (r.status !== 0) throw new Error(`maou ${argv.join(' ')}: exit ${r.status}`);
};
const camel = (flag: string): string =>
  flag.replace(/^--/, '').replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
/** The tune through `benchmarkTune()` with the testkit's slow transform on every shard read; the report to `json`. */
const tuneTransformed = async (argv: readonly string[], json: string): Promise<void> => {
  const options: Record<string, unknown> = { logLevel: 'warn', outputJson: json };
  for (let i = 0; i < argv.length; i += 2)
    options[camel(argv[i]!)] =
      argv[i] === '--stage3-data-path'
        ? [argv[i + 1]]
        : Number.isNaN(Number(argv[i + 1]))
          ? argv[i + 1]
          : Number(argv[i + 1]);
  await benchmarkTune(options as BenchmarkTuneOptions, { overrides: { DataLoaderFactory: transformCostLoaders() } });
};
const pct = (x: number | null): string => (x === null ? 'open' : `${(x * 100).toFixed(1)} %`);

/** The printed command and the baseline, A B A B in fresh processes, each `reproduceS` s of training batches. */
const reproduce = (command: string, baseline: readonly string[]) => {
  const words = command.split(' ').slice(1); // 'maou' is the CLI here; the test configurations need no quoting
  const timed = ['--time-budget', reproduceS, '--target-precision', '0', '--no-calibrate'];
  const sps: { a: number[]; b: number[] } = { a: [], b: [] };
  let ran = { threads: 0, workers: '' };
  for (let i = 0; i < 2; i++)
    for (const side of ['a', 'b'] as const) {
      const json = path.join(dir, `reproduce-${side}-${i}.json`);
      maou(side === 'a' ? ['utility', 'benchmark-training', ...baseline, ...timed] : [...words, ...timed], json);
      const report = JSON.parse(readFileSync(json, 'utf8')) as BenchmarkTrainingReport;
      sps[side].push(report.training_metrics.samples_per_second);
      if (side === 'b') ran = { threads: report.environment.threads, workers: String(report.config['loader.workers']) };
    }
  const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
  return { a: sps.a, b: sps.b, ratio: mean(sps.b) / mean(sps.a), ran };
};

const significantOf = (t: TuneReport): string[] =>
  t.changes.filter((c) => c.significant).map((c) => `${c.flag} ${c.value}`);

const main = async (): Promise<void> => {
  for (const name of only) {
    const c = CASES[name];
    if (!c) throw new Error(`unknown case ${name}; known: ${Object.keys(CASES).join(', ')}`);
    if (c.transform) {
      process.env[TRANSFORM_COST_ENV] = arg('transform-us', '1000');
      const positions = arg('positions', '16384');
      const generate = ['utility', 'generate-sample-data', '--stage', '3', '--positions', positions];
      const made = spawnSync(
        process.execPath,
        [cli, ...generate, '--output-dir', transformData, '--rows-per-file', '64'],
        {
          stdio: ['ignore', 'ignore', 'inherit'],
        },
      );
      if (made.status !== 0) throw new Error(`generate-sample-data: exit ${made.status}`);
    }
    const verdicts: string[][] = [];
    for (let run = 1; run <= runs; run++) {
      // the transform case reads its own files, so no sample data flags
      const flags = [...(c.transform ? common.slice(0, 4) : common), ...c.flags, '--seed', String(run)];
      const json = path.join(dir, `${name}-${run}.json`);
      const before = load();
      const t0 = Date.now();
      console.log(
        `\n== ${name} run ${run}: benchmark-tune ${flags.join(' ')} --tune-budget ${budget} (load ${before})`,
      );
      if (c.transform) await tuneTransformed([...flags, '--tune-budget', budget], json);
      else maou(['utility', 'benchmark-tune', ...flags, '--tune-budget', budget], json);
      const t = JSON.parse(readFileSync(json, 'utf8')) as TuneReport;
      const ratio = t.final.samples_per_second / t.baseline.samples_per_second;
      console.log(
        `-- ${name} run ${run}: ${((Date.now() - t0) / 1000).toFixed(0)} s, load ${before} -> ${load()}; final ${ratio.toFixed(2)}x the baseline in the same run (verified ${t.final.verification ? `${pct(t.final.verification.gain)}, interval ${pct(t.final.verification.interval[0])} … ${pct(t.final.verification.interval[1])}` : 'nothing'}); significant: ${significantOf(t).join(', ') || 'none'}`,
      );
      verdicts.push(significantOf(t));
      const found = t.final.changes.filter((x) => c.expect?.includes(x.flag)).map((x) => `${x.flag} ${x.value}`);
      if (c.expect !== null)
        console.log(
          `-- ${name} run ${run}: ${found.length ? `${found.join(', ')} found and verified` : `${c.expect.join(' or ')} NOT found`}`,
        );
      if (t.final.changes.length && name === 'threads') {
        const r = reproduce(t.command, flags);
        console.log(
          `-- ${name} run ${run}: the printed command, A/B/A/B in fresh processes: ${r.b.map((x) => x.toFixed(0)).join(', ')} samples/s against the baseline's ${r.a.map((x) => x.toFixed(0)).join(', ')}: ${r.ratio.toFixed(2)}x; it ran ${r.ran.threads} thread(s), ${r.ran.workers} loader worker(s)`,
        );
      }
    }
    if (runs >= 2) {
      const unconfirmed = verdicts[0]!.filter((v) => !verdicts[1]!.includes(v));
      console.log(
        `-- ${name}: significant in run 1 and not in run 2: ${unconfirmed.join(', ') || 'none'}; in run 2 and not in run 1: ${verdicts[1]!.filter((v) => !verdicts[0]!.includes(v)).join(', ') || 'none'}`,
      );
    }
  }
};

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
