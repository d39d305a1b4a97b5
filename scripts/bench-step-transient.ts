// Why does the step keep getting faster? Runs full epochs on freshly generated data under node flag variants, A/B in
// rounds, and prints this process's CPU ms per batch over batches 15–30 and 60–end (CPU time, so that other processes'
// load matters less than wall time) with their ratio, plus wall time and data wait. One thread, loader on the main
// thread, so no replica waits at a barrier. Usage: pnpm bench:transient [--rounds 2] [--positions 12000]
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
// node flags | extra maou flags
const VARIANTS: Record<string, [string[], string[]]> = {
  default: [[], []],
  'no-wasm-dynamic-tiering': [['--no-wasm-dynamic-tiering'], []],
  'max-opt=2 (no JS TurboFan)': [['--max-opt=2'], []],
  'interrupt-budget/8': [['--interrupt-budget=8448'], []],
  'max-semi-space-size=64': [['--max-semi-space-size=64'], []],
  'weights frozen (lr 1e-9)': [[], ['--learning-ratio', '1e-9']],
};
type Batch = { wallMs: number; phases: { dataWait: number }; cpu?: { processMs: number } };
const mean = (xs: number[]): number => xs.reduce((s, x) => s + x, 0) / xs.length;

execFileSync(process.execPath, [bin, 'utility', 'generate-sample-data', '--stage', '3', '--positions', arg('positions', '12000'), '--output-dir', join(dir, 'data'),
  '--seed', String(Date.now() % 1_000_000), '--log-level', 'silent'], { stdio: 'ignore' });
for (let round = 0; round < Number(arg('rounds', '2')); round++) {
  for (const [name, [nodeFlags, maouFlags]] of Object.entries(VARIANTS)) {
    const out = join(dir, 'out.json');
    execFileSync(process.execPath, [...nodeFlags, bin, 'utility', 'benchmark-training', '--stage3-data-path', join(dir, 'data'), '--batch-size', '64', '--full-epoch',
      '--warmup-batches', '3', '--threads', '1', '--dataloader-workers', '0', '--log-level', 'silent', '--output-json', out, ...maouFlags], { stdio: ['ignore', 'ignore', 'inherit'] });
    const b = JSON.parse(readFileSync(out, 'utf8')).batches as Batch[];
    const win = (f: (x: Batch) => number, a: number, e: number) => mean(b.slice(a, e).map(f));
    const cpu = (x: Batch) => x.cpu?.processMs ?? Number.NaN;
    const ratio = win(cpu, 60, b.length) / win(cpu, 15, 30);
    const load = readFileSync('/proc/loadavg', 'utf8').split(' ')[0];
    console.log(`${name.padEnd(28)} round ${round}  load ${load}  CPU ms/batch 15–30 ${win(cpu, 15, 30).toFixed(1)} → 60–end ${win(cpu, 60, b.length).toFixed(1)} (${ratio.toFixed(3)})  wall ${win((x) => x.wallMs, 15, 30).toFixed(1)} → ${win((x) => x.wallMs, 60, b.length).toFixed(1)}  data wait ${win((x) => x.phases.dataWait, 15, b.length).toFixed(1)} ms`);
  }
}
rmSync(dir, { recursive: true, force: true });
