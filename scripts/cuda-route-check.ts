/**
 * The CUDA route check (issue 41, ADR 0013): cuDNN's convolution forward, data gradient and filter gradient for every
 * convolution shape of the resnet and lite planned steps, called from Node through koffi and timed with CUDA events,
 * beside PyTorch's torch.backends.cudnn on the same shapes in the same run (scripts/cuda-route-torch.py), at fp32
 * (TF32 off), TF32 and fp16. Writes cuda-route.md (the table), cuda-route.jsonl and cuda-route-shapes.json to --out.
 *
 *   node <pack>/bench/scripts/cuda-route-check.js --out DIR --torch-script scripts/cuda-route-torch.py
 *        [--presets resnet,lite] [--batches 1024,256] [--precisions fp32,tf32,fp16] [--runs 10]
 *        [--budget-s 240] [--torch-limit-s 240] [--graph-groups 2] [--dry-run]
 *
 * Packed and started by scripts/cuda-route-remote.sh (docs/cuda.md). --dry-run needs no GPU: it plans the shapes,
 * runs the library discovery (printing why it fails here), and runs the PyTorch side's dry run.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  type ConvPass,
  type CudaLibrarySet,
  CudnnConvTimer,
  discoverCuda,
  openCudaDevice,
  presetConvShapes,
  type RoutePrecision,
  routeTable,
  type RouteTiming,
} from '@maou/bench-compute/cuda';

// A bad flag is one line naming it and exit 2, not a stack trace.
process.on('uncaughtException', (e) => {
  process.stderr.write(`cuda-route: ${e.message}\n`);
  process.exit(2);
});
const USAGE = 'cuda-route-check --out DIR --torch-script FILE [--presets ..] [--batches ..] [--precisions ..]';
const arg = (name: string, fallback: string): string => {
  const at = process.argv.indexOf(`--${name}`);
  if (at < 0) return fallback;
  const value = process.argv[at + 1];
  if (value === undefined || value.startsWith('--')) throw new Error(`--${name} needs a value (${USAGE})`);
  return value;
};
const list = <T extends string>(name: string, fallback: string, allowed: readonly T[]): T[] => {
  const values = arg(name, fallback).split(',');
  const bad = values.filter((v) => !allowed.includes(v as T));
  if (bad.length) throw new Error(`--${name}: unknown ${bad.join(', ')}; choose from ${allowed.join(', ')}`);
  return values as T[];
};
const positive = (name: string, fallback: string): number => {
  const v = Number(arg(name, fallback));
  if (!(v > 0) || !Number.isFinite(v)) throw new Error(`--${name}: a positive number, got ${arg(name, fallback)}`);
  return v;
};

const dryRun = process.argv.includes('--dry-run');
const out = path.resolve(arg('out', process.env.OUT ?? '.cache/cuda-route-out'));
const torchScript = arg('torch-script', '');
const presets = list('presets', 'resnet,lite', ['resnet', 'lite'] as const);
const batches = arg('batches', '1024,256')
  .split(',')
  .map((b) => {
    const n = Number(b);
    if (!Number.isInteger(n) || n < 1) throw new Error(`--batches: positive integers, got ${b}`);
    return n;
  });
const precisions = list<RoutePrecision>('precisions', 'fp32,tf32,fp16', ['fp32', 'tf32', 'fp16']);
const runs = positive('runs', '10');
const budgetS = positive('budget-s', '240');
const torchLimitS = positive('torch-limit-s', '240');
/** how many preset/batch groups (in order) also run as one captured CUDA Graph */
const graphGroups = Number(arg('graph-groups', '2'));
if (!torchScript || !fs.existsSync(torchScript)) throw new Error(`--torch-script: no such file '${torchScript}'`);
const PASSES: readonly ConvPass[] = ['forward', 'data grad', 'filter grad'];
const graphLines: string[] = [];

fs.mkdirSync(out, { recursive: true });
const jsonl = path.join(out, 'cuda-route.jsonl');
fs.writeFileSync(jsonl, '');
const record = (line: object) => fs.appendFileSync(jsonl, `${JSON.stringify(line)}\n`);
const say = (line: string) => process.stderr.write(`cuda-route: ${line}\n`);

// Most important first (the budget drops the rest): batch 1024 of both presets, then 256.
const groups = batches.flatMap((batch) =>
  presets.map((preset) => ({ key: `${preset} ${batch}`, preset, batch, shapes: presetConvShapes(preset, batch) })),
);
const shapesFile = path.join(out, 'cuda-route-shapes.json');
fs.writeFileSync(shapesFile, JSON.stringify(Object.fromEntries(groups.map((g) => [g.key, g.shapes])), null, 1));
say(`${groups.map((g) => `${g.key}: ${g.shapes.length} shapes`).join(', ')}; ${precisions.join(', ')}`);

/** The libraries, or null in a dry run where they are missing (outside one, their absence ends the run). */
function libraries(): CudaLibrarySet | null {
  const libs = discoverCuda();
  if (!libs.ok) {
    say(`${libs.error.message}\n(${libs.error.hint})`);
    if (!dryRun) process.exit(2);
    return null;
  }
  for (const l of Object.values(libs.value)) say(`${l.title} ${l.version} (CUDA ${l.cuda}): ${l.path}`);
  return libs.value;
}

function koffiRows(libs: CudaLibrarySet | null): RouteTiming[] {
  if (!libs) return [];
  const device = openCudaDevice(libs.driver.path, 0);
  say(`cuda:0 ${device.name}, compute capability ${device.computeCapability}`);
  record({ device, libraries: libs });
  const timer = new CudnnConvTimer(libs, 0);
  const t0 = performance.now();
  const spent = () => (performance.now() - t0) / 1000 > budgetS;
  const timings: RouteTiming[] = [];
  rows: for (const g of groups)
    for (const precision of precisions)
      for (const [shape, c] of g.shapes.entries())
        for (const pass of PASSES) {
          if (spent()) {
            say(`budget of ${budgetS} s spent: ${g.key} ${precision} and later rows not timed`);
            break rows;
          }
          try {
            const r = timer.time(c, precision, pass, runs);
            const t = { runner: 'koffi' as const, preset: g.preset, batch: g.batch, precision, pass, shape, ms: r.ms };
            const row = { ...t, layers: c.layers.length };
            timings.push(row);
            record({ ...row, algo: r.algo, mathType: r.mathType, workspaceBytes: r.workspaceBytes });
          } catch (e) {
            say(`${g.key} ${precision} shape ${shape} ${pass}: ${(e as Error).message}`);
            record({ runner: 'koffi', preset: g.preset, batch: g.batch, precision, pass, shape, error: String(e) });
          }
        }
  // Then whole networks' convolutions, eager from Node and as one captured CUDA Graph, while the budget lasts.
  for (const g of groups.slice(0, graphGroups))
    for (const precision of precisions) {
      if (spent()) return timings;
      try {
        const r = timer.graphReplay(g.shapes, precision);
        record({ runner: 'koffi graph', preset: g.preset, batch: g.batch, precision, ...r });
        graphLines.push(
          `| ${g.key} | ${precision} | ${r.calls} | ${r.eagerMs.toFixed(2)} | ${r.replayMs.toFixed(2)} |`,
        );
      } catch (e) {
        say(`${g.key} ${precision} graph: ${(e as Error).message}`);
        graphLines.push(`| ${g.key} | ${precision} | — | — | failed: ${(e as Error).message} |`);
      }
    }
  return timings;
}

/** The PyTorch side as a child, killed at its time limit; its JSON lines are timings or its versions. */
function torchRows(): Promise<RouteTiming[]> {
  const args = [torchScript, '--shapes', shapesFile, '--precisions', precisions.join(','), '--runs', String(runs)];
  return new Promise((resolve) => {
    const child = spawn('python3', [...args, ...(dryRun ? ['--dry-run'] : [])], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const timer = setTimeout(() => {
      say(`PyTorch side stopped at its limit of ${torchLimitS} s`);
      child.kill('SIGKILL');
    }, torchLimitS * 1000);
    let text = '';
    child.stdout.on('data', (b: Buffer) => (text += b.toString()));
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code !== 0) say(`PyTorch side exited with ${code}`);
      const lines = text
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as RouteTiming & { torch?: string });
      lines.forEach(record);
      resolve(lines.filter((l) => l.torch === undefined));
    });
  });
}

async function main(): Promise<void> {
  const libs = libraries();
  // PyTorch first: its lines are in cuda-route.jsonl even if a wrong call on the koffi side ends the process
  const torch = await torchRows();
  const koffi = koffiRows(libs);
  const table = routeTable([...koffi, ...torch], new Map(groups.map((g) => [g.key, g.shapes.length])));
  const text = [
    `# CUDA route check${dryRun ? ' (dry run: no timings)' : ''}`,
    '',
    'Convolution time over the whole network (each shape × the layers that have it), medians of CUDA-event timings.',
    '',
    table,
    '',
    ...(graphLines.length
      ? [
          'Every convolution pass of the network in order (each layer once), enqueued from Node one call at a time and',
          'captured once as a CUDA Graph and replayed:',
          '',
          '| preset batch | precision | calls | eager ms | graph replay ms |',
          '| --- | --- | ---: | ---: | ---: |',
          ...graphLines,
          '',
        ]
      : []),
  ].join('\n');
  fs.writeFileSync(path.join(out, 'cuda-route.md'), text);
  process.stdout.write(text);
}

main().catch((e: Error) => {
  say(e.message);
  process.exit(1);
});
