/**
 * What does the benchmark's instrumentation cost? The same trainer, batches and backend run
 *   bare:          a plain loop of `trainer.step` calls,
 *   instrumented:  `runTrainingPass` (data-wait and phase bookkeeping, tiling, live-tensor counts, callbacks),
 * interleaved A/B/A/B so machine drift hits both, and the throughput ratio is printed.
 * The trainer's own per-phase settles (one awaited one-element read per phase) are part of both loops: they are
 * what makes phase times honest, and on the synchronous wasm backend they wait for work that is already done.
 *
 *   pnpm bench:instrumentation [-- --batch 64 --batches 12 --rounds 3]
 */
import { createRequire } from 'node:module';
import * as path from 'node:path';
import type * as TfCore from '@tensorflow/tfjs-core';
import { TRAINING_DEFAULTS, type HostBatch } from '@maou/bench-domain';
import { createTrainer } from '@maou/bench-engine';
import { runTrainingPass } from '@maou/bench-use-cases';
import { installWasmKernels } from '@maou/bench-compute';
import { SystemClockAdapter } from '@maou/bench-infra';

// tfjs is a dependency of the packages, not of the workspace root.
const load = createRequire(path.join(__dirname, '..', 'packages', 'compute', 'package.json'));
const tf = load('@tensorflow/tfjs-core') as typeof TfCore;

const arg = (name: string, fallback: number): number => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
};
const batch = arg('batch', 64);
const batches = arg('batches', 12);
const rounds = arg('rounds', 3);

const syntheticBatch = (size: number, seed: number): HostBatch => {
  let s = seed >>> 0;
  const rnd = (): number => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 4294967296;
  const moveLabel = new Float32Array(size * 1496);
  for (let i = 0; i < size; i++) moveLabel[i * 1496 + Math.floor(rnd() * 1496)] = 1;
  return {
    stage: 3,
    size,
    boardIds: Int32Array.from({ length: size * 81 }, () => Math.floor(rnd() * 29)),
    hands: Float32Array.from({ length: size * 14 }, () => Math.floor(rnd() * 3)),
    targets: {
      stage: 3,
      moveLabel,
      resultValue: Float32Array.from({ length: size }, () => [0, 0.5, 1][Math.floor(rnd() * 3)]!),
    },
  };
};

async function* feed(data: readonly HostBatch[]): AsyncGenerator<HostBatch> {
  for (const b of data) yield b;
}

const main = async (): Promise<void> => {
  load('@tensorflow/tfjs-backend-wasm');
  installWasmKernels('fast');
  await tf.setBackend('wasm');
  const clock = new SystemClockAdapter();
  const data = Array.from({ length: batches }, (_, i) => syntheticBatch(batch, i + 1));
  const training = { ...TRAINING_DEFAULTS, preset: 'lite' as const, gradientClip: 0 };
  const trainer = createTrainer({ stage: 3, training, totalSteps: rounds * 2 * batches + 2, seed: 1 });
  for (const b of data.slice(0, 2)) await trainer.step(b, clock);
  const times = { bare: [] as number[], instrumented: [] as number[] };
  for (let r = 0; r < rounds; r++) {
    let t0 = clock.now();
    for (const b of data) await trainer.step(b, clock);
    times.bare.push(clock.now() - t0);
    t0 = clock.now();
    await runTrainingPass({
      batches: feed(data),
      trainer,
      clock,
      planned: batches,
      warmup: 0,
      profile: new Set(),
      onBatch: () => undefined,
    });
    times.instrumented.push(clock.now() - t0);
  }
  const rate = (ms: number[]): number => (rounds * batches * batch) / (ms.reduce((a, b) => a + b, 0) / 1000);
  const bare = rate(times.bare);
  const inst = rate(times.instrumented);
  console.log(`lite, batch ${batch}, ${batches} batches × ${rounds} rounds, wasm backend`);
  console.log(
    `bare loop          ${bare.toFixed(2)} samples/s   (round ms: ${times.bare.map((t) => t.toFixed(0)).join(', ')})`,
  );
  console.log(
    `instrumented pass  ${inst.toFixed(2)} samples/s   (round ms: ${times.instrumented.map((t) => t.toFixed(0)).join(', ')})`,
  );
  console.log(`overhead           ${((1 - inst / bare) * 100).toFixed(2)} % of throughput (bar: ≤ 3 %)`);
  trainer.dispose();
};

void main();
