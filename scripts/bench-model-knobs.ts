/**
 * What maou HEAD's training knobs cost on the wasm backend (fast kernels, one thread, in-process): ViT with and
 * without --gradient-checkpointing (peak tensor bytes of a step, from tf.profile, and step time), and MLP-Mixer /
 * ViT frozen (--freeze-backbone, --trainable-layers 1) against unfrozen (backward phase time, trainable
 * parameters). Settings alternate A/B/A/B inside one process on the same synthetic batches.
 *
 *   pnpm bench:knobs [-- --batch 16 --rounds 2 --presets vit,mlp-mixer]
 */
import { createRequire } from 'node:module';
import * as path from 'node:path';
import type * as TfCore from '@tensorflow/tfjs-core';
import { TRAINING_DEFAULTS, type TrainingConfig } from '@maou/bench-domain';
import { TfjsTrainer } from '@maou/bench-engine';
import { installWasmKernels } from '@maou/bench-compute';

const repo = path.resolve(__dirname, '..');
const load = createRequire(path.join(repo, 'packages/compute/package.json'));
const arg = (name: string, fallback: string): string => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? process.argv[at + 1]! : fallback;
};

const BASE: TrainingConfig = { ...TRAINING_DEFAULTS, preset: 'vit', learningRate: 1e-3 };

function syntheticBatch(size: number, seed: number) {
  let s = seed >>> 0;
  const rnd = () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 4294967296;
  const boardIds = Int32Array.from({ length: size * 81 }, () => Math.floor(rnd() * 29));
  const hands = Float32Array.from({ length: size * 14 }, () => Math.floor(rnd() * 3));
  const moveLabel = new Float32Array(size * 1496);
  for (let i = 0; i < size; i++) moveLabel[i * 1496 + Math.floor(rnd() * 1496)] = 1;
  const resultValue = Float32Array.from({ length: size }, () => [0, 0.5, 1][Math.floor(rnd() * 3)]!);
  return { stage: 3 as const, size, boardIds, hands, targets: { stage: 3 as const, moveLabel, resultValue } };
}

interface Row {
  setting: string;
  stepMs: number;
  backwardMs: number;
  peakMiB: number;
  trainable: number;
}

async function measure(tf: typeof TfCore, name: string, training: TrainingConfig, batch: number): Promise<Row> {
  const trainer = new TfjsTrainer({ stage: 3, training, totalSteps: 1000, seed: 0 });
  const clock = { now: () => performance.now(), wallTime: () => new Date() };
  await trainer.step(syntheticBatch(batch, 1), clock); // warm-up: optimiser state and kernel set-up
  let stepMs = 0;
  let backwardMs = 0;
  const info = await tf.profile(async () => {
    const t0 = performance.now();
    const r = await trainer.step(syntheticBatch(batch, 2), clock);
    stepMs = performance.now() - t0;
    backwardMs = r.phasesMs.backward;
    return [];
  });
  const trainable = trainer.trainableParameterCount;
  trainer.dispose();
  return { setting: name, stepMs, backwardMs, peakMiB: info.peakBytes / 2 ** 20, trainable };
}

async function main(): Promise<void> {
  const tf = load('@tensorflow/tfjs-core') as typeof TfCore;
  load('@tensorflow/tfjs-backend-wasm');
  installWasmKernels('fast');
  await tf.setBackend('wasm');
  await tf.ready();
  const batch = Number(arg('batch', '16'));
  const rounds = Number(arg('rounds', '2'));
  const presets = arg('presets', 'vit,mlp-mixer').split(',') as ('vit' | 'mlp-mixer')[];
  const settings: [string, TrainingConfig][] = presets.flatMap((preset) => {
    const base: TrainingConfig = { ...BASE, preset };
    return [
      [`${preset}`, base],
      ...(preset === 'vit' ? [[`${preset} --gradient-checkpointing`, { ...base, gradientCheckpointing: true }]] : []),
      [`${preset} --trainable-layers 1`, { ...base, trainableLayers: 1 }],
      [`${preset} --freeze-backbone`, { ...base, freezeBackbone: true }],
    ] as [string, TrainingConfig][];
  });
  const rows: Row[] = [];
  for (let round = 0; round < rounds; round++)
    for (const [name, training] of settings) {
      const row = await measure(tf, name, training, batch);
      rows.push(row);
      console.log(
        `round ${round}  ${name.padEnd(34)} step ${row.stepMs.toFixed(0).padStart(7)} ms  backward ${row.backwardMs.toFixed(0).padStart(7)} ms  peak ${row.peakMiB.toFixed(0).padStart(6)} MiB  trainable ${row.trainable.toLocaleString('en')}`,
      );
    }
  console.log(`\nbatch ${batch}, wasm (fast kernels), 1 thread; medians over ${rounds} round(s):`);
  for (const [name] of settings) {
    const mine = rows.filter((r) => r.setting === name);
    const med = (f: (r: Row) => number) => mine.map(f).sort((a, b) => a - b)[Math.floor(mine.length / 2)]!;
    console.log(
      `${name.padEnd(34)} step ${med((r) => r.stepMs)
        .toFixed(0)
        .padStart(7)} ms  backward ${med((r) => r.backwardMs)
        .toFixed(0)
        .padStart(7)} ms  peak ${med((r) => r.peakMiB)
        .toFixed(0)
        .padStart(6)} MiB`,
    );
  }
}

void main();
