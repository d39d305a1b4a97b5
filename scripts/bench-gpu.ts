/**
 * `pnpm bench:gpu`: the planned WebGPU step, the tfjs-webgpu path and PyTorch on the same GPU, side by side in one
 * table, plus the planned step's first loss and gradients against the tfjs-webgpu path. Each row is its own child
 * process (scripts/bench-webgpu.ts, or shared/peer/torch_peer.py) with a time limit, and rows stop being started
 * once the budget (320 s) is spent, so one slow row cannot take the run and the whole stays under 6 minutes.
 *
 *   node <pack>/bench/scripts/bench-gpu.js --out DIR --peer torch_peer.py [--dry-run] [--presets resnet,lite] [--budget-s 320] [--row-limit-s 40]
 *
 * Packed and started by scripts/bench-gpu-remote.sh (see docs/webgpu.md, "Measuring on a GPU"). `--dry-run` runs
 * every row but PyTorch at tiny batches (lavapipe), with no budget. `--report-from DIR/gpu-bench.jsonl` prints the
 * table of an earlier run again.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { gpuPeak, type GpuPeak } from '@maou/bench-compute/webgpu';

const arg = (name: string, fallback: string): string => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? process.argv[at + 1]! : fallback;
};
const dryRun = process.argv.includes('--dry-run');
const out = path.resolve(arg('out', '.'));
const peer = arg('peer', '');
const budgetS = Number(arg('budget-s', dryRun ? '1e9' : '320'));
const rowLimitS = Number(arg('row-limit-s', dryRun ? '1500' : '40'));
const bench = path.join(__dirname, 'bench-webgpu.js');
/** `--presets lite` narrows a dry run (lavapipe compiles resnet's first step for many minutes on a loaded box) */
const presets = arg('presets', 'resnet,lite').split(',');
/** `--token-presets ''` leaves out the vit and mlp-mixer rows */
const tokenPresets = arg('token-presets', 'vit,mlp-mixer').split(',').filter(Boolean);
/** GPU rows at batch 256 and 1024; the dry run at 4 and 8 (lavapipe does every kernel on the CPU) */
const batches = dryRun ? [8, 4] : [1024, 256];
const [steps, warmup] = dryRun ? ['2', '1'] : ['8', '2'];
const checkBatch = dryRun ? 8 : 256;
/**
 * The cpu backend's third opinion runs where it is affordable (lite 32: 66 s on an H200's host; lite 256 takes 12
 * minutes): at batch 256 three correct f32 paths differ by a few percent of the largest element (summation order,
 * ADR 0015), so there only the repeat and the median say something.
 */
const thirdOpinionBatch = dryRun ? 4 : 32;

type Json = Record<string, unknown>;
interface Row {
  readonly title: string;
  readonly group: 'step' | 'check';
  readonly command: string;
  readonly args: readonly string[];
  readonly limitS: number;
}
interface Result {
  readonly row: Row;
  readonly lines: Json[];
  readonly status: string;
  readonly seconds: number;
}

const webgpu = (title: string, args: string[], group: Row['group'] = 'step'): Row => ({
  title,
  group,
  command: process.execPath,
  args: [bench, ...args],
  limitS: rowLimitS,
});
const torch = (preset: string, batch: number, precision: 'fp32' | 'amp-fp16'): Row => ({
  title: `${preset} ${batch} PyTorch ${precision}`,
  group: 'step',
  command: 'python3',
  // random rows enough for the warm-up and timed batches; 6 loader workers keep the GPU fed at batch 1024
  args: [
    ...[peer, '--device', 'cuda', '--preset', preset, '--batch-size', String(batch), '--precision', precision],
    ...['--workers', '6', '--rows', String(batch * 16), '--warmup-batches', '4', '--batches', '12'],
  ],
  limitS: rowLimitS + 10, // python and torch take several seconds to start
});

/**
 * Most important first, so that a spent budget drops the least: batch 1024 of both presets (ours, PyTorch, the
 * tfjs-webgpu baseline), then the first-step gradient checks, then batch 256.
 */
function rows(): Row[] {
  const timing = ['--steps', steps, '--warmup', warmup];
  const stepRows = (preset: string, batch: number): Row[] => {
    const shape = ['--preset', preset, '--batch', String(batch), ...timing, '--step'];
    return [
      webgpu(`${preset} ${batch} planned f32`, [...shape, 'planned', '--profile']),
      webgpu(`${preset} ${batch} planned mixed`, [...shape, 'planned', '--profile', '--mixed-precision']),
      ...(dryRun ? [] : [torch(preset, batch, 'fp32'), torch(preset, batch, 'amp-fp16')]),
      webgpu(`${preset} ${batch} tfjs-webgpu`, [...shape, 'tfjs']),
    ];
  };
  // f32 and mixed apart: an adapter without shader-f16 (NVIDIA's Vulkan driver under Dawn) fails only the mixed row;
  // `--repeat`: a kernel that races gives other bits the second time
  const check = (preset: string) =>
    [['--repeat'], ['--mixed-precision']].map((precision) =>
      webgpu(
        `${preset} ${checkBatch} ${precision[0] === '--repeat' ? 'f32' : 'mixed'} gradients: planned vs tfjs-webgpu`,
        ['--check-gradients', '--preset', preset, '--batch', String(checkBatch), ...precision],
        'check',
      ),
    );
  const thirdOpinion = {
    ...webgpu(
      `lite ${thirdOpinionBatch} f32 gradients: planned, tfjs-webgpu and cpu`,
      ['--check-gradients', '--reference-cpu', '--preset', 'lite', '--batch', String(thirdOpinionBatch)],
      'check',
    ),
    limitS: rowLimitS + 80,
  };
  const [large, small] = batches as [number, number];
  // the token backbones train on the tfjs-webgpu path with the fused WGSL kernels (GELU, layer norm, AdamW, clipping)
  const tokenRows = tokenPresets.map((p) =>
    webgpu(`${p} ${small} tfjs-webgpu (fused kernels)`, [
      '--preset',
      p,
      '--batch',
      String(small),
      ...timing,
      '--step',
      'tfjs',
    ]),
  );
  return [
    ...presets.flatMap((p) => stepRows(p, large)),
    ...presets.flatMap(check),
    ...tokenRows,
    ...presets.flatMap((p) => stepRows(p, small)),
    // last: two minutes of the cpu backend, which the budget may leave out before the rows above
    ...(presets.includes('lite') ? [thirdOpinion] : []),
  ];
}

function runRow(row: Row, limitS: number): Promise<Result> {
  const t0 = performance.now();
  return new Promise((resolve) => {
    const child = spawn(row.command, row.args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, limitS * 1000);
    const finish = (status: string) => {
      clearTimeout(timer);
      const seconds = (performance.now() - t0) / 1000;
      const lines = stdout
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as Json);
      if (status !== 'ok') console.error(`[${row.title}] ${status}\n${stderr.split('\n').slice(-15).join('\n')}`);
      resolve({ row, lines, status, seconds });
    };
    child.on('error', (e) => finish(`failed to start: ${e.message}`));
    child.on('close', (code) =>
      finish(timedOut ? `killed at its ${limitS.toFixed(0)} s limit` : code === 0 ? 'ok' : `exit ${code}`),
    );
  });
}

const fmt = (v: unknown, digits = 1): string =>
  typeof v === 'number' ? v.toLocaleString('en-US', { maximumFractionDigits: digits }) : v == null ? '—' : String(v);
const pct = (v: number, of: number | undefined) => (of ? `${((100 * v) / of).toFixed(2)} %` : '—');

function stepTable(results: Result[], peaks: Map<string, GpuPeak | null>): string[] {
  const lines = [
    '| row | samples/s | ms/step | host ms/step | dispatches | GPU ms/step (profiled) | TFLOP/s (6 × MACs) | % FP32 peak | % FP16 tensor peak | loss | status |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
  ];
  for (const r of results.filter((x) => x.row.group === 'step')) {
    const j = r.lines.find((l) => 'samplesPerS' in l || 'train_samples_per_s' in l);
    if (!j) {
      lines.push(`| ${r.row.title} | | | | | | | | | | ${r.status} (${r.seconds.toFixed(0)} s) |`);
      continue;
    }
    const isTorch = 'train_samples_per_s' in j;
    const samples = Number(isTorch ? j.train_samples_per_s : j.samplesPerS);
    const macs = Number(isTorch ? j.macs_per_sample : j.multiplyAddsPerSample);
    const tflops = (samples * macs * 6) / 1e12;
    const peak = isTorch ? gpuPeak(String(j.device)) : (peaks.get('webgpu') ?? null);
    if (isTorch) peaks.set('cuda', peak);
    lines.push(
      `| ${r.row.title} | ${fmt(samples, 0)} | ${fmt(isTorch ? j.train_ms_per_batch_median : j.medianStepMs, 2)} | ${fmt(
        j.hostMsPerStep,
        2,
      )} | ${fmt(j.dispatchesPerStep)} | ${fmt(j.gpuMsPerStep, 2)} | ${fmt(tflops, 3)} | ${pct(tflops, peak?.fp32Tflops)} | ${pct(
        tflops,
        peak?.fp16TensorTflops,
      )} | ${fmt(isTorch ? j.loss_last : j.loss, 4)} | ${r.status} (${r.seconds.toFixed(0)} s) |`,
    );
  }
  return lines;
}

function kernelTables(results: Result[]): string[] {
  const lines: string[] = [];
  for (const r of results) {
    const j = r.lines.find((l) => Array.isArray(l.kernels));
    if (!j) continue;
    const kernels = j.kernels as Json[];
    const total = kernels.reduce((s, k) => s + Number(k.ms), 0);
    lines.push(
      '',
      `GPU time per kernel kind, ${r.row.title} (one profiled step, each dispatch in its own pass; ~ marks estimated FLOPs):`,
      '',
      '| kind | calls | GPU ms | share | GFLOP | MB moved | TFLOP/s | GB/s | % FP32 peak | % bandwidth | bound |',
      '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
      ...kernels
        .slice(0, 10)
        .map(
          (k) =>
            `| ${k.kind} | ${k.calls} | ${fmt(k.ms, 2)} | ${((100 * Number(k.ms)) / total).toFixed(1)} % | ${
              k.flopsExact ? '' : '~'
            }${fmt(k.gflop, 2)} | ${fmt(k.mb, 1)} | ${fmt(k.tflops, 3)} | ${fmt(k.gbps, 1)} | ${fmt(
              k.percentOfFp32Peak,
              1,
            )} | ${fmt(k.percentOfBandwidth, 1)} | ${fmt(k.bound)} |`,
        ),
    );
  }
  return lines;
}

/** Two worst errors of the same kind ("0, 0.0027"), or — where the row did not measure them. */
const pair = (a: unknown, b: unknown): string =>
  a && b ? `${(a as { worst: number }).worst}, ${(b as { worst: number }).worst}` : '—';

function checkTable(results: Result[]): string[] {
  const lines = [
    '| preset | batch | precision | loss tfjs-webgpu | loss planned | loss rel. diff | worst gradient err (parameter; measure) | median err | bound (loss, gradient) | within bound | again: planned, tfjs-webgpu | against cpu: planned, tfjs-webgpu |',
    '| --- | ---: | --- | ---: | ---: | ---: | --- | ---: | --- | --- | --- | --- |',
  ];
  for (const r of results.filter((x) => x.row.group === 'check')) {
    if (!r.lines.length) lines.push(`| ${r.row.title} | | | | | | | | | ${r.status} | | |`);
    for (const j of r.lines.filter((l) => l.check === 'gradients')) {
      const b = j.bounds as { loss: number; gradient: number };
      lines.push(
        `| ${j.preset} | ${j.batch} | ${j.precision} | ${fmt(j.lossTfjs, 6)} | ${fmt(j.lossPlanned, 6)} | ${j.lossRelDiff} | ${
          j.maxGradientErr
        } (${j.worstParameter}; ${String(j.measure).replaceAll('|', '\\|')}) | ${j.medianGradientErr} | ${b.loss}, ${b.gradient} | ${j.ok ? 'yes' : '**NO**'} | ${pair(j.plannedRepeat, j.tfjsWebgpuRepeat)} | ${pair(j.plannedVsCpu, j.tfjsWebgpuVsCpu)} |`,
      );
    }
  }
  return lines;
}

function report(results: Result[], seconds: number, total: number): string {
  const info = results.flatMap((r) => r.lines).find((l) => 'backendInfo' in l);
  const adapter = (info?.backendInfo as { gpuAdapter?: Json } | undefined)?.gpuAdapter;
  const peaks = new Map<string, GpuPeak | null>([['webgpu', (info?.peak as GpuPeak | null) ?? null]]);
  const table = stepTable(results, peaks);
  const cuda = peaks.get('cuda');
  const peakLine = (p: GpuPeak | null | undefined) =>
    p
      ? `${p.name}: FP32 ${p.fp32Tflops} TFLOP/s, FP16 tensor ${p.fp16TensorTflops} TFLOP/s (dense), ${p.memoryTBps} TB/s`
      : 'no data-sheet peak for this device';
  return [
    `# bench:gpu${dryRun ? ' --dry-run (lavapipe: correctness of the rows only, its times say nothing about a GPU)' : ''}`,
    '',
    ...(results.length < total ? [`**Partial: ${results.length} of ${total} rows so far.**`, ''] : []),
    `- WebGPU adapter: ${adapter ? `${adapter.vendor} ${adapter.device} (${adapter.description}), architecture ${adapter.architecture || 'n/a'}` : 'none started'}`,
    `- peaks (data sheet, by adapter name): ${peakLine(peaks.get('webgpu'))}`,
    ...(cuda !== undefined ? [`- PyTorch's device peaks: ${peakLine(cuda)}`] : []),
    `- Node ${process.version}; rows: ${steps} timed steps after ${warmup} warm-up (median), Stage 3, AdamW, synthetic batch; row limit ${rowLimitS} s; ${seconds.toFixed(0)} s in all`,
    '- TFLOP/s counts 6 × the forward multiply-adds per sample (forward + backward) for every row; % FP16 tensor peak is what AMP could reach, WebGPU has no tensor cores',
    '',
    ...table,
    '',
    'First step: planned loss and gradients against the engine on the tfjs-webgpu path (same weights, same batch):',
    '',
    ...checkTable(results),
    ...kernelTables(results),
    '',
  ].join('\n');
}

async function main(): Promise<void> {
  const from = arg('report-from', '');
  if (from) {
    // re-render the table of an earlier run (e.g. one cut short) from its gpu-bench.jsonl
    const results = fs
      .readFileSync(from, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Result);
    console.log(
      report(
        results,
        results.reduce((s, r) => s + r.seconds, 0),
        results.length,
      ),
    );
    return;
  }
  if (!dryRun && !peer) throw new Error('--peer: path of torch_peer.py needed (or --dry-run)');
  fs.mkdirSync(out, { recursive: true });
  const t0 = performance.now();
  const elapsed = () => (performance.now() - t0) / 1000;
  const results: Result[] = [];
  const planned = rows();
  const raw = path.join(out, 'gpu-bench.jsonl');
  fs.writeFileSync(raw, '');
  for (const row of planned) {
    const left = budgetS - elapsed();
    const r =
      left < 10
        ? { row, lines: [], status: 'skipped: budget spent', seconds: 0 }
        : await runRow(row, Math.min(row.limitS, left));
    results.push(r);
    fs.appendFileSync(raw, `${JSON.stringify(r)}\n`);
    // written after every row, so a run cut short still leaves its table
    fs.writeFileSync(path.join(out, 'gpu-bench.md'), report(results, elapsed(), planned.length));
    console.error(`[${elapsed().toFixed(0)} s] ${row.title}: ${r.status} in ${r.seconds.toFixed(1)} s`);
  }
  console.log(report(results, elapsed(), planned.length));
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
