// Does a capped run predict the full epoch? Runs the built `maou` twice on the same sample data: once with
// --max-batches, once with --full-epoch, and compares the capped run's predicted epoch with the full run's actual time.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const arg = (name: string, fallback: string): string => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1]! : fallback;
};
const positions = arg('positions', '4096');
const batch = arg('batch-size', '64');
const capped = arg('max-batches', '15');
const dir = mkdtempSync(join(tmpdir(), 'maou-epoch-'));
const bin = join(__dirname, '..', 'packages', 'cli', 'dist', 'main.js');
const common = ['utility', 'benchmark-training', '--sample-positions', positions, '--batch-size', batch, '--warmup-batches', '3', '--log-level', 'silent'];

const run = (extra: string[], out: string) => {
  execFileSync(process.execPath, [bin, ...common, ...extra, '--output-json', out], { env: { ...process.env, MAOU_BENCH_CACHE: join(dir, 'cache') }, stdio: ['ignore', 'ignore', 'inherit'] });
  return JSON.parse(readFileSync(out, 'utf8'));
};

const a = run(['--max-batches', capped], join(dir, 'capped.json'));
const full = run(['--full-epoch'], join(dir, 'full.json'));
const actual = (full.batches as { wallMs: number }[]).reduce((s, b) => s + b.wallMs, 0);
const predicted = a.epoch_estimate.predicted_ms as number;
const [lo, hi] = a.epoch_estimate.predicted_ms_ci95 as [number, number];
const rows = [
  ['batches per epoch', String(a.epoch_estimate.batches_per_epoch)],
  ['capped run batches', String(a.training_metrics.total_batches)],
  ['predicted epoch (capped run)', `${(predicted / 1000).toFixed(2)} s  (interval ${(lo / 1000).toFixed(2)}–${(hi / 1000).toFixed(2)} s)`],
  ['actual full epoch', `${(actual / 1000).toFixed(2)} s over ${full.batches.length} batches`],
  ['prediction / actual', (predicted / actual).toFixed(3)],
  ['within ±10 %', String(Math.abs(predicted / actual - 1) <= 0.1)],
  ['actual inside the interval', String(actual >= lo && actual <= hi)],
];
for (const [k, v] of rows) console.log(`${k.padEnd(30)} ${v}`);
