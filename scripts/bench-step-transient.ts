// Why does the step keep getting faster? Runs full epochs on freshly generated data (lite, batch 64) under node flag
// variants, A/B in rounds, and prints this process's CPU ms per batch over batches 15–45 and 60–end (CPU time, so
// that other processes' load matters less than wall time) with their ratio (< 1: still getting faster late), the
// epoch's wall time, the process's wall time (the replicas' warm-up is the difference), and the CPU ms of every
// fifth batch-window, where a late step down shows. Default threads, as the command runs; `--threads 1` puts the
// step on the main thread (no replicas, no throw-away warm-up steps).
// Usage: pnpm bench:transient [--rounds 2] [--positions 12000] [--threads 1] [--only default,no-opt]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const arg = (name: string, fallback: string): string => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1]! : fallback;
};
const bin = join(__dirname, '..', 'packages', 'cli', 'dist', 'main.js');
const dir = mkdtempSync(join(tmpdir(), 'maou-transient-'));
// node flags per variant (they reach the replicas' worker threads too: V8 flags are per process)
const VARIANTS: Record<string, string[]> = {
  default: [],
  'no-opt': ['--no-opt'],
  'max-opt=2': ['--max-opt=2'],
  'max-lazy': ['--max-lazy'],
  'always-sparkplug': ['--always-sparkplug'],
  'no-wasm-dynamic-tiering': ['--no-wasm-dynamic-tiering'],
  'max-semi-space-size=64': ['--max-semi-space-size=64'],
};
type Batch = { wallMs: number; phases: { dataWait: number }; cpu?: { processMs: number } };
const mean = (xs: number[]): number => xs.reduce((s, x) => s + x, 0) / xs.length;
const only = arg('only', '').split(',').filter(Boolean);
const threads = arg('threads', '');

execFileSync(
  process.execPath,
  [
    bin,
    'utility',
    'generate-sample-data',
    '--stage',
    '3',
    '--positions',
    arg('positions', '12000'),
    '--output-dir',
    join(dir, 'data'),
    '--seed',
    String(Date.now() % 1_000_000),
    '--log-level',
    'silent',
  ],
  { stdio: 'ignore' },
);
for (let round = 0; round < Number(arg('rounds', '2')); round++) {
  for (const [name, nodeFlags] of Object.entries(VARIANTS).filter(([n]) => !only.length || only.includes(n))) {
    const out = join(dir, 'out.json');
    const t0 = Date.now();
    execFileSync(
      process.execPath,
      [
        ...nodeFlags,
        bin,
        'utility',
        'benchmark-training',
        '--stage3-data-path',
        join(dir, 'data'),
        '--model-architecture',
        'lite',
        '--batch-size',
        '64',
        '--full-epoch',
        ...(threads ? ['--threads', threads, '--dataloader-workers', '0'] : []),
        '--log-level',
        'silent',
        '--output-json',
        out,
      ],
      { stdio: ['ignore', 'ignore', 'inherit'] },
    );
    const processS = (Date.now() - t0) / 1000;
    const b = JSON.parse(readFileSync(out, 'utf8')).batches as Batch[];
    const cpu = b.map((x) => x.cpu?.processMs ?? Number.NaN);
    const early = mean(cpu.slice(15, 45));
    const late = mean(cpu.slice(60));
    const windows = Array.from({ length: Math.floor(cpu.length / 5) }, (_, k) =>
      mean(cpu.slice(5 * k, 5 * k + 5)).toFixed(0),
    ).join(' ');
    const load = readFileSync('/proc/loadavg', 'utf8').split(' ')[0];
    console.log(
      `${name.padEnd(24)} round ${round}  load ${load}  CPU ms/batch 15–45 ${early.toFixed(1)} → 60–end ${late.toFixed(1)} (${(late / early).toFixed(3)})  epoch ${((mean(b.map((x) => x.wallMs)) * b.length) / 1000).toFixed(2)} s  process ${processS.toFixed(1)} s  data wait ${mean(b.slice(15).map((x) => x.phases.dataWait)).toFixed(1)} ms | ${windows}`,
    );
  }
}
rmSync(dir, { recursive: true, force: true });
