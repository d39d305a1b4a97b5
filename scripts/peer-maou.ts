/**
 * Real maou beside ours on the same files: maou's own `utility benchmark-training` (CPU, the peer that
 * `../shared/peer/maou/setup.sh` builds under /tmp/maou-peer) and ours, for each stage, on one file and on several,
 * alternating A (maou) / B (ours) so both see the same load. Prints both batch counts per epoch, parameter counts,
 * samples/s of every run and predicted epochs; exits 1 when a batch count differs (or a run fails).
 *
 *   pnpm peer:maou [-- --stages 1,2,3 --rounds 2 --batch 32 --batches 3 --threads 2 --arch resnet
 *                     --peer /tmp/maou-peer/run-maou.sh]
 *
 * Not part of CI (it needs the Python peer). The files come from our `generate-sample-data`: Stage 1 maou's 1,105
 * patterns, Stage 2 and 3 random legal games, in three layouts: one file; the same rows in 3 equal files (maou then
 * streams); and 3 files of unequal size, 2:2:1 (Stage 2/3: 2,000, 2,000 and 1,000 rows), where which file maou holds
 * out for validation decides the training batches.
 * Stage 3 runs use each tool's default --policy-target-mode (maou's: win-rate), which reads moveWinRate. Needs
 * `pnpm build` first (the package script does it).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import * as path from 'node:path';

const repo = path.resolve(__dirname, '..');
const cli = path.join(repo, 'packages/cli/dist/main.js');
const arg = (name: string, fallback: string): string => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? process.argv[at + 1]! : fallback;
};
const stages = arg('stages', '1,2,3').split(',').map(Number) as (1 | 2 | 3)[];
const rounds = Number(arg('rounds', '2'));
const batch = Number(arg('batch', '32'));
const batches = Number(arg('batches', '3'));
const threads = Number(arg('threads', '2'));
const arch = arg('arch', 'resnet');
const peer = arg('peer', '/tmp/maou-peer/run-maou.sh');
const cache = path.join(repo, '.cache/peer-maou');

// Rows per stage: Stage 3 as in issue #25 (12,000 rows: 300 batches of 32 after the row split).
const POSITIONS: Record<1 | 2 | 3, number> = { 1: 1105, 2: 3000, 3: 12_000 };
// The unequal layout: rows per stage, cut into files of 2/5 of them (2:2:1); issue #43's 2,000/2,000/1,000 at Stage 3.
const UNEQUAL_POSITIONS: Record<1 | 2 | 3, number> = { 1: 1105, 2: 5000, 3: 5000 };

/** One way of laying the rows out in files. */
interface Layout {
  readonly name: string;
  readonly positions: number;
  /** rows per file; null for one file */
  readonly rowsPerFile: number | null;
}
const layouts = (stage: 1 | 2 | 3): Layout[] => [
  { name: '1 file', positions: POSITIONS[stage], rowsPerFile: null },
  { name: '3 equal files', positions: POSITIONS[stage], rowsPerFile: Math.ceil(POSITIONS[stage] / 3) },
  {
    name: '3 unequal files (2:2:1)',
    positions: UNEQUAL_POSITIONS[stage],
    rowsPerFile: Math.ceil((UNEQUAL_POSITIONS[stage] * 2) / 5),
  },
];

interface Run {
  readonly batchesPerEpoch: number | null;
  readonly parameters: number | null;
  readonly samplesPerS: number;
  readonly predictedEpochS: number | null;
}

const generate = (stage: 1 | 2 | 3, layout: Layout): string => {
  const per = layout.rowsPerFile;
  const dir = path.join(cache, `stage${stage}-${layout.positions}${per === null ? '-1file' : `-per${per}`}`);
  if (existsSync(dir)) return dir;
  const rowsPerFile = per === null ? [] : ['--rows-per-file', String(per)];
  execFileSync(
    process.execPath,
    [cli, 'utility', 'generate-sample-data', '--stage', String(stage), '--positions', String(layout.positions)].concat(
      ['--seed', '777', '--output-dir', dir, '--log-level', 'silent'],
      rowsPerFile,
    ),
    { stdio: 'inherit' },
  );
  return dir;
};

const summaryNumbers = (summary: string) => ({
  batchesPerEpoch: Number(/Processed Batches: \d+ \/ (\d+)/.exec(summary)?.[1] ?? NaN) || null,
  predictedEpochS: Number(/Estimated Full Epoch Time: ([0-9.]+)s/.exec(summary)?.[1] ?? NaN) || null,
});

const maou = (stage: number, dir: string): Run => {
  const r = spawnSync(peer, [dir, arch, String(batch), String(batches), String(threads)], {
    encoding: 'utf8',
    env: { ...process.env, STAGE: String(stage), WARMUP: '1', POLICY_TARGET: 'win-rate' },
  });
  const line = r.stdout.trim().split('\n').pop() ?? '';
  const j = JSON.parse(line || '{}') as Record<string, unknown>;
  if (!j.ok) throw new Error(`real maou failed on ${dir}: ${line || r.stderr}`);
  return {
    batchesPerEpoch: j.batches_per_epoch as number,
    parameters: j.total_parameters as number,
    samplesPerS: j.samples_per_second as number,
    predictedEpochS: j.predicted_epoch_time_s as number,
  };
};

const ours = (stage: number, dir: string): Run => {
  const out = path.join(cache, `ours-s${stage}.json`);
  const r = spawnSync(
    process.execPath,
    [cli, 'utility', 'benchmark-training', '--stage', String(stage), `--stage${stage}-data-path`, dir]
      .concat(['--model-architecture', arch, '--batch-size', String(batch), '--warmup-batches', '1'])
      .concat(['--max-batches', String(batches), '--threads', String(threads), '--dataloader-workers', '0'])
      .concat(['--output-json', out, '--log-level', 'silent']),
    { encoding: 'utf8' },
  );
  if (r.status !== 0) throw new Error(`ours failed on ${dir}: ${r.stderr}`);
  // Our report carries maou's payload under `maou`, Summary text included.
  const j = (
    JSON.parse(readFileSync(out, 'utf8')) as {
      maou: {
        benchmark_results: { Summary: string };
        training_metrics: { samples_per_second: number; model_info?: { total_parameters: number } };
      };
    }
  ).maou;
  return {
    ...summaryNumbers(j.benchmark_results.Summary),
    parameters: j.training_metrics.model_info?.total_parameters ?? null,
    samplesPerS: j.training_metrics.samples_per_second,
  };
};

const fmt = (n: number | null, digits = 0): string => (n === null ? '-' : n.toFixed(digits));
let mismatches = 0;
console.log(
  `peer:maou  arch ${arch}, batch ${batch}, ${batches} batches (1 warm-up), ${threads} threads, ${rounds} round(s) A/B; ` +
    `load ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
);
const rows: string[] = [];
for (const stage of stages) {
  for (const layout of layouts(stage)) {
    const dir = generate(stage, layout);
    const runs: { maou: Run[]; ours: Run[] } = { maou: [], ours: [] };
    for (let r = 0; r < rounds; r++) {
      runs.maou.push(maou(stage, dir));
      runs.ours.push(ours(stage, dir));
    }
    const [m, o] = [runs.maou[0]!, runs.ours[0]!];
    const same = m.batchesPerEpoch === o.batchesPerEpoch;
    if (!same) mismatches++;
    const abab = runs.maou.map((a, i) => `${fmt(a.samplesPerS, 2)} / ${fmt(runs.ours[i]!.samplesPerS, 2)}`);
    const label = `Stage ${stage}, ${layout.name}, ${layout.positions} rows`;
    rows.push(
      `| ${label.padEnd(44)} | ${fmt(m.batchesPerEpoch).padStart(5)} | ${fmt(o.batchesPerEpoch).padStart(5)} |`,
    );
    console.log(
      `${label}: batches/epoch maou ${fmt(m.batchesPerEpoch)} ours ` +
        `${fmt(o.batchesPerEpoch)} ${same ? 'same' : 'DIFFERENT'}; parameters maou ${fmt(m.parameters)} ours ` +
        `${fmt(o.parameters)}; samples/s maou/ours (A/B per round) ${abab.join(', ')}; predicted epoch s maou ` +
        `${runs.maou.map((x) => fmt(x.predictedEpochS, 1)).join(', ')} ours ${runs.ours.map((x) => fmt(x.predictedEpochS, 1)).join(', ')}`,
    );
  }
}
console.log(`\nBatches per epoch, side by side:\n| ${'stage, layout, rows'.padEnd(44)} |  maou |  ours |`);
console.log(`| ${'-'.repeat(44)} | ----: | ----: |`);
console.log(rows.join('\n'));
console.log(
  `load at the end ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
if (mismatches) {
  console.error(`peer:maou: ${mismatches} batch count(s) differ from real maou`);
  process.exit(1);
}
