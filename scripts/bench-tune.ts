/**
 * `maou utility benchmark-tune` on configurations with a known better setting, and on a good one, each tuned twice
 * with fresh seeds; the printed command of a tune that changed something is run again (A/B/A/B against the baseline,
 * `benchmark-training` in fresh processes) to check that it reproduces the tuned speed.
 *
 *   pnpm bench:tune [-- --budget 240 --only threads,warmup,good --runs 2 --positions 16384 --reproduce 20]
 *
 * Cases: `threads` (--threads 1 --dataloader-workers 0: on a machine of two or more cores, more threads and a loader
 * worker should win), `warmup` (--warmup-batches 0, shorter than the steady start), `good` (the defaults; nothing may
 * be called significant that the second run does not also call significant). The CLI is the built one (`pnpm build`).
 * The load average is printed before and after each tune: other processes on the cores change what a leg measures.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { BenchmarkTrainingReport, TuneReport } from '@maou/bench-domain';

const repo = path.resolve(__dirname, '..');
const cli = path.join(repo, 'packages/cli/dist/main.js');
const arg = (name: string, fallback: string): string => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? process.argv[at + 1]! : fallback;
};
const budget = arg('budget', '240');
const only = arg('only', 'threads,warmup,good').split(',');
const runs = Number(arg('runs', '2'));
const reproduceS = arg('reproduce', '20');
const dir = mkdtempSync(path.join(tmpdir(), 'bench-tune-'));
const common = [
  ...['--model-architecture', 'lite', '--batch-size', '64', '--sample-positions', arg('positions', '16384')],
  ...['--sample-cache-dir', path.join(dir, 'sample')],
];
const CASES: Record<string, { flags: string[]; expect: string | null }> = {
  threads: { flags: ['--threads', '1', '--dataloader-workers', '0'], expect: '--threads' },
  warmup: { flags: ['--warmup-batches', '0'], expect: '--warmup-batches' },
  good: { flags: [], expect: null },
};

const load = (): string => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const maou = (argv: readonly string[], json: string): void => {
  const r = spawnSync(process.execPath, [cli, ...argv, '--log-level', 'warn', '--output-json', json], {
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (r.status !== 0) throw new Error(`maou ${argv.join(' ')}: exit ${r.status}`);
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

for (const name of only) {
  const c = CASES[name];
  if (!c) throw new Error(`unknown case ${name}; known: ${Object.keys(CASES).join(', ')}`);
  const verdicts: string[][] = [];
  for (let run = 1; run <= runs; run++) {
    const flags = [...common, ...c.flags, '--seed', String(run)];
    const json = path.join(dir, `${name}-${run}.json`);
    const before = load();
    const t0 = Date.now();
    console.log(`\n== ${name} run ${run}: benchmark-tune ${flags.join(' ')} --tune-budget ${budget} (load ${before})`);
    maou(['utility', 'benchmark-tune', ...flags, '--tune-budget', budget], json);
    const t = JSON.parse(readFileSync(json, 'utf8')) as TuneReport;
    const ratio = t.final.samples_per_second / t.baseline.samples_per_second;
    console.log(
      `-- ${name} run ${run}: ${((Date.now() - t0) / 1000).toFixed(0)} s, load ${before} -> ${load()}; final ${ratio.toFixed(2)}x the baseline in the same run (verified ${t.final.verification ? `${pct(t.final.verification.gain)}, interval ${pct(t.final.verification.interval[0])} … ${pct(t.final.verification.interval[1])}` : 'nothing'}); significant: ${significantOf(t).join(', ') || 'none'}`,
    );
    verdicts.push(significantOf(t));
    const found = c.expect === null || t.final.changes.some((x) => x.flag === c.expect);
    if (c.expect !== null)
      console.log(`-- ${name} run ${run}: ${c.expect} ${found ? 'found and verified' : 'NOT found'}`);
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
