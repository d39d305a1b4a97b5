/**
 * Ours against the PyTorch peer through the command lines, on the same real Stage 3 files: `maou utility
 * benchmark-training` (wasm backend) and the PyTorch peer (`scripts/peer/torch_backbones_peer.py`: `../shared/peer/torch_peer.py`
 * plus maou's mlp-mixer and vit), alternating A/B/A/B so that both see the same load, for each preset, at batch 256 on
 * 2 threads. Prints every run's samples/s, which convolution kernels
 * ours ran (native AVX-512/AVX2 or the WebAssembly fallback, from the report's backend notes), and the ratios.
 *
 *   pnpm bench:peer [-- --presets resnet,mlp-mixer,vit --rounds 2 --kernels auto,wasm --warmup 5 --batches 20
 *                      --threads 2 --batch 256 --python python3 --peer-dir ../shared/peer]
 *
 * `--kernels` lists the MAOU_CPU_KERNELS settings to time ours with (auto: the native kernels where built; wasm:
 * the WebAssembly SIMD fallback). The files are generated once by `maou utility generate-sample-data` into
 * .cache/bench-peer (random legal games, so every position and label is real). Needs `pnpm build` first, and a python
 * with torch, numpy and pyarrow for the peer (`--python`). A smaller `--batch` or fewer `--batches` suit a loaded machine.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

const repo = path.resolve(__dirname, '..');
const cli = path.join(repo, 'packages/cli/dist/main.js');
const arg = (name: string, fallback: string): string => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? process.argv[at + 1] : fallback;
};
const peer = path.join(repo, 'scripts/peer/torch_backbones_peer.py');
const peerDir = path.resolve(arg('peer-dir', path.join(repo, '../shared/peer')));
const python = arg('python', 'python3');
const presets = arg('presets', 'resnet,mlp-mixer,vit').split(',');
const rounds = Number(arg('rounds', '2'));
const kernels = arg('kernels', 'auto').split(',');
const warmup = Number(arg('warmup', '5'));
const batches = Number(arg('batches', '20'));
const threads = Number(arg('threads', '2'));
const batch = Number(arg('batch', '256'));
// Enough rows for warm-up plus timed batches after the 20 % validation split, and for the peer's loader.
const positions = Math.ceil((batch * (warmup + batches + 2)) / 0.8);
const data = path.join(repo, '.cache/bench-peer', `stage3-${positions}`);

interface Run {
  engine: string;
  preset: string;
  round: number;
  samplesPerS: number;
  kernels: string;
}

function ensureData(): void {
  if (fs.existsSync(data)) return;
  console.log(`generating ${positions} Stage 3 positions into ${path.relative(repo, data)}`);
  execFileSync(
    process.execPath,
    [cli, 'utility', 'generate-sample-data', '--stage', '3', '--positions', String(positions), '--output-dir', data],
    { stdio: 'inherit' },
  );
}

function ours(preset: string, setting: string, round: number): Run {
  const out = execFileSync(
    process.execPath,
    [
      cli,
      'utility',
      'benchmark-training',
      '--stage',
      '3',
      '--stage3-data-path',
      data,
      '--model-architecture',
      preset,
      '--batch-size',
      String(batch),
      '--threads',
      String(threads),
      '--gpu',
      'wasm',
      '--warmup-batches',
      String(warmup),
      '--max-batches',
      String(warmup + batches),
      '--json',
    ],
    {
      encoding: 'utf8',
      env: { ...process.env, MAOU_CPU_KERNELS: setting },
      stdio: ['ignore', 'pipe', 'ignore'],
      maxBuffer: 1 << 26,
    },
  );
  const r = JSON.parse(out) as {
    training_metrics: { samples_per_second: number };
    environment: { backend_notes: string[] };
  };
  const conv = r.environment.backend_notes.find((n) => /kernels/.test(n)) ?? '?';
  return {
    engine: `ours ${setting}`,
    preset,
    round,
    samplesPerS: r.training_metrics.samples_per_second,
    kernels: conv,
  };
}

function torch(preset: string, round: number): Run {
  const out = execFileSync(
    python,
    [
      peer,
      '--peer-dir',
      peerDir,
      '--data',
      data,
      '--preset',
      preset,
      '--batch-size',
      String(batch),
      '--threads',
      String(threads),
      '--warmup-batches',
      String(warmup),
      '--batches',
      String(batches),
    ],
    { encoding: 'utf8' },
  );
  const r = JSON.parse(out.trim().split('\n').pop()!) as { engine: string; train_samples_per_s: number };
  return {
    engine: 'peer',
    preset,
    round,
    samplesPerS: r.train_samples_per_s,
    kernels: `${r.engine}, ${threads} threads`,
  };
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

function main(): void {
  if (!fs.existsSync(cli)) throw new Error(`${cli} is missing: run pnpm build first`);
  if (!fs.existsSync(path.join(peerDir, 'torch_peer.py')))
    throw new Error(`${peerDir}/torch_peer.py is missing: pass the peer's folder with --peer-dir`);
  ensureData();
  const runs: Run[] = [];
  for (const preset of presets) {
    for (let round = 1; round <= rounds; round++) {
      // A/B within a round: each of ours, then the peer; the next round repeats, so load drifts hit both.
      for (const setting of kernels) {
        const a = ours(preset, setting, round);
        runs.push(a);
        console.log(
          `${preset} round ${round}: ${a.engine.padEnd(10)} ${a.samplesPerS.toFixed(1).padStart(8)} samples/s  [${a.kernels}]`,
        );
        const b = torch(preset, round);
        runs.push(b);
        console.log(
          `${preset} round ${round}: ${'peer'.padEnd(10)} ${b.samplesPerS.toFixed(1).padStart(8)} samples/s  [${b.kernels}]`,
        );
      }
    }
  }
  console.log(
    `\nbatch ${batch}, ${threads} threads, ${warmup} warm-up + ${batches} timed batches, data ${path.relative(repo, data)}`,
  );
  console.log(
    'preset     ours            ours samples/s (each run)     peer samples/s (each run)     ratio of medians  ratios per A/B pair',
  );
  for (const preset of presets) {
    for (const setting of kernels) {
      const o = runs.filter((r) => r.preset === preset && r.engine === `ours ${setting}`);
      // The peer run that followed each of ours is its pair.
      const p = o.map((r) => runs[runs.indexOf(r) + 1]);
      const pairs = o.map((r, i) => (r.samplesPerS / p[i].samplesPerS).toFixed(2));
      const ratio = median(o.map((r) => r.samplesPerS)) / median(p.map((r) => r.samplesPerS));
      console.log(
        `${preset.padEnd(10)} ${setting.padEnd(15)} ${o
          .map((r) => r.samplesPerS.toFixed(1))
          .join(' / ')
          .padEnd(29)} ${p
          .map((r) => r.samplesPerS.toFixed(1))
          .join(' / ')
          .padEnd(29)} ${`${ratio.toFixed(2)}×`.padEnd(17)} ${pairs.join(', ')}`,
      );
    }
  }
  for (const setting of kernels)
    console.log(
      `kernels with MAOU_CPU_KERNELS=${setting}: ${runs.find((r) => r.engine === `ours ${setting}`)?.kernels}`,
    );
}

main();
